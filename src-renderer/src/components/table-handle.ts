/** What a table exposes to its parent (generic SFCs cannot be typed with InstanceType). */
export interface TableHandle {
  focus(): void;
  scrollToIndex(index: number): void;
  renderedRange(): readonly [number, number];
}

/**
 * Reads asset IDs pasted one per line (from a spreadsheet, an inventory tool)
 * and says which lines are not asset IDs, by line number, before anything
 * goes into the draft. Blank lines are skipped; repeats are reported once.
 */
export interface PastedAssetIds {
  readonly ids: readonly string[];
  readonly errors: ReadonlyArray<{ line: number; reason: string }>;
}

export function parseAssetIds(text: string): PastedAssetIds {
  const ids: string[] = [];
  const seen = new Map<string, number>();
  const errors: Array<{ line: number; reason: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    // Tolerate a trailing comma or tab from a copied spreadsheet column.
    const value = raw.trim().replace(/[,;\t]+$/, '');
    if (value === '') return;
    if (!/^\d{1,20}$/.test(value)) {
      errors.push({ line, reason: `“${value.slice(0, 40)}” is not an asset ID (digits only)` });
      return;
    }
    const first = seen.get(value);
    if (first !== undefined) {
      errors.push({ line, reason: `asset ${value} repeats line ${first}` });
      return;
    }
    seen.set(value, line);
    ids.push(value);
  });
  return { ids, errors };
}

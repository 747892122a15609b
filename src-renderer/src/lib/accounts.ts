/**
 * Account IDs are 17-digit strings; in a dense table the main account reads
 * "main" and a linked one "linked …0002" (its last four digits), with the full
 * ID kept for the tooltip.
 */
export function accountLabel(id64: string, mainId: string): string {
  if (id64 === mainId || (mainId === '' && id64 === '')) return 'main';
  return `linked …${id64.slice(-4)}`;
}

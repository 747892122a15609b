/**
 * Two strings in code-unit order, as SQLite's BINARY collation sorts them:
 * for IDs and keys, where an order need only be stable. No locale: the first
 * `localeCompare` maps ICU's data into memory, and IDs have no language.
 */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

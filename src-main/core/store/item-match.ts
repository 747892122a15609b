import type { ItemFacets, KillstreakFilter } from '../../../src-shared/item-facets.ts';
import { searchWords } from '../items/search-words.ts';
import type { Params } from './typed-rows.ts';

/**
 * The one query builder of item search, for every table that lists items
 * (the ledger's, the inventory picker's, History's, the drafts review's): a
 * typed search and the item filters as SQL over the names tables (migration
 * 19, filled by name-index.ts).
 *
 * A search matches a row when every word typed starts a word of its item
 * (its name's, its quality's, its effect's: core/items/search-words.ts), in
 * any order, answered by the FTS5 index of the SKUs' words; or when the text
 * as typed is in one of the row's own texts (its SKU, asset ID, note, ...).
 */

/** A piece of a WHERE clause with its named parameters. */
export interface SqlPart {
  readonly sql: string;
  readonly params: Params;
}

/** The FTS5 query of folded words: each the start of a word, all of them. Words are letters and digits only, so quoting is safe. */
export function wordsQuery(words: readonly string[]): string {
  return words.map((w) => `"${w}"*`).join(' AND ');
}

/**
 * A typed search over a row: `sku` is the SQL of the row's SKU, `texts` the
 * SQL of its other texts, lower-cased (as `fold()` does), which the text
 * is looked for in as typed; `name` names the parameters. Null for an
 * empty search.
 */
export function itemTextSql(text: string, row: { readonly sku: string; readonly texts: readonly string[] }, name: string): SqlPart | null {
  const typed = text.trim().toLowerCase();
  if (typed === '') return null;
  const words = searchWords(text);
  const parts: string[] = [];
  const params: Params = {};
  // The row's own texts first: a row they match is not looked up among the SKUs the words find.
  if (row.texts.length > 0) {
    for (const t of row.texts) parts.push(`instr(${t}, :${name}_typed) > 0`);
    params[`${name}_typed`] = typed;
  }
  if (words.length > 0) {
    parts.push(`${row.sku} IN (SELECT sku FROM item_words WHERE item_words MATCH :${name}_words)`);
    params[`${name}_words`] = wordsQuery(words);
  }
  return parts.length === 0 ? null : { sql: `(${parts.join(' OR ')})`, params };
}

/** Where a table keeps an item's parts: a column each, as the inventory and the names table both do. */
export interface FacetColumns {
  readonly quality: string;
  readonly strange: string;
  readonly effect: string;
  readonly killstreak: string;
  readonly craftable: string;
  readonly wear: string;
}

const KILLSTREAK: Readonly<Record<KillstreakFilter, string>> = { none: '= 0', any: '> 0', basic: '= 1', specialized: '= 2', professional: '= 3' };

/**
 * The item filters as SQL over a table's part columns, AND-ed; null when
 * none is set. A Strange Unusual counts as Strange too: it is what a trader
 * filtering for Strange wants to see.
 */
export function facetSql(f: ItemFacets, c: FacetColumns, name: string): SqlPart | null {
  const parts: string[] = [];
  const params: Params = {};
  const equal = (column: string, key: string, value: number) => {
    parts.push(`${column} = :${name}_${key}`);
    params[`${name}_${key}`] = value;
  };
  if (f.quality !== undefined) {
    if (f.quality === 11) parts.push(`(${c.quality} = 11 OR ${c.strange} = 1)`);
    else equal(c.quality, 'quality', f.quality);
  }
  if (f.effect !== undefined) equal(c.effect, 'effect', f.effect);
  if (f.killstreak !== undefined) parts.push(`${c.killstreak} ${KILLSTREAK[f.killstreak]}`);
  if (f.craftable !== undefined) equal(c.craftable, 'craftable', f.craftable ? 1 : 0);
  if (f.wear !== undefined) equal(c.wear, 'wear', f.wear);
  return parts.length === 0 ? null : { sql: parts.join(' AND '), params };
}

/** The names table's part columns. */
const NAMES: FacetColumns = { quality: 'n.quality', strange: 'n.strange', effect: 'n.effect', killstreak: 'n.killstreak', craftable: 'n.craftable', wear: 'n.wear' };

/** The item filters over a row that has only its SKU (the ledger's rows): its SKU among those whose parts match. */
export function skuFacetSql(f: ItemFacets, sku: string, name: string): SqlPart | null {
  const facets = facetSql(f, NAMES, name);
  return facets === null ? null : { sql: `${sku} IN (SELECT n.sku FROM item_names n WHERE ${facets.sql})`, params: facets.params };
}

/** Whether a filter sets any item part. */
export function hasFacets(f: ItemFacets): boolean {
  return f.quality !== undefined || f.effect !== undefined || f.killstreak !== undefined || f.craftable !== undefined || f.wear !== undefined;
}

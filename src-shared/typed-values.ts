import { parseCents } from './money.ts';

/**
 * What a trader types into a field, read into the value a change carries,
 * or the reason it is not one: the one rule each screen calls (the inline
 * editors, the bulk panel, the create panels), in plain code the renderer
 * can load. The drafts check the values again with the zod schemas of
 * fields.ts, which accept every value these readings give.
 */

export type Reading<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const refuse = (problem: string): Reading<never> => ({ ok: false, problem });

/**
 * A buy order quantity: digits only, at least 1. "1e3", "1.0", "+3", "0x10"
 * and "١٢" are refused, although a number parser would read some of them:
 * what the trader sees typed is what is sent, or nothing is.
 */
export function readQuantity(text: string): Reading<number> {
  const digits = text.trim();
  if (!/^\d+$/.test(digits)) return refuse('Type a whole quantity of at least 1 (digits only).');
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return refuse('The quantity is too large.');
  if (value < 1) return refuse('Type a whole quantity of at least 1 (digits only).');
  return { ok: true, value };
}

/** A price or an amount of money in dollars ("12.34", "$1,234.50"), above $0.00, as whole cents. */
export function readPrice(text: string): Reading<number> {
  const cents = parseCents(text);
  if (cents === null) return refuse('Not a price: type it like 12.34.');
  if (cents <= 0) return refuse('The price must be above $0.00.');
  return { ok: true, value: cents };
}

/** Platform asset IDs are digit strings (`assetId` in fields.ts says the same with zod). */
export const ASSET_ID_SHAPE = /^\d{1,20}$/;

export function isAssetId(text: string): boolean {
  return ASSET_ID_SHAPE.test(text);
}

/** Game app IDs are digit strings (`gameId` in fields.ts); "440" is the documented one. */
export const GAME_ID_SHAPE = /^\d{1,10}$/;

export interface PastedAssetIds {
  readonly ids: readonly string[];
  readonly errors: ReadonlyArray<{ line: number; reason: string }>;
}

/**
 * Reads asset IDs pasted one per line (from a spreadsheet, an inventory tool)
 * and says which lines are not asset IDs, by line number, before anything
 * goes into the draft. Blank lines are skipped; repeats are reported once.
 */
export function parseAssetIds(text: string): PastedAssetIds {
  const ids: string[] = [];
  const seen = new Map<string, number>();
  const errors: Array<{ line: number; reason: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    // Tolerate a trailing comma or tab from a copied spreadsheet column.
    const value = raw.trim().replace(/[,;\t]+$/, '');
    if (value === '') return;
    if (!isAssetId(value)) {
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

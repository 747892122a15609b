import { z } from 'zod';
import { errorView } from './errors.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * What "Check ledger" answers: the service cannot list the account's
 * listings, so the desk re-reads what it can tell (the pending trades, which
 * name what sold, and the balance) and lists the ledger rows whose state is
 * in doubt, each with why. Main builds it; the renderer shows it.
 */

/** How one re-read went: nothing to say, or why it failed. */
export const rereadResult = lazySchema(() => z.object({
  ok: z.boolean(),
  error: errorView.optional(),
}));

export const rowInDoubt = lazySchema(() => z.object({
  kind: z.enum(['listing', 'buyOrder']),
  /** The asset ID of a listing, the SKU of a buy order. */
  key: z.string(),
  /** The ledger state ('sold_in_trade', 'not_on_service', 'active'…), or 'unknown_outcome' for a change nobody knows the fate of. */
  state: z.string(),
  /** In the trader's words. */
  reason: z.string(),
  /** The trade that sold it, while it is pending. */
  tradeId: z.string().optional(),
  /** The unknown outcome to resolve (apply:resolve), when that is the doubt. */
  outcomeId: z.string().optional(),
}));

export const ledgerCheckSchema = lazySchema(() => z.object({
  checkedAt: z.number(),
  trades: rereadResult,
  balance: rereadResult,
  rows: z.array(rowInDoubt),
}));

export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;
export type RowInDoubt = z.infer<typeof rowInDoubt>;

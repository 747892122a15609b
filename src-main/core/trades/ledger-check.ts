import { isApiError, ApiError } from '../api/errors.ts';
import { listUnknownOutcomes } from '../apply/recovery.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { ENDED_STATES } from '../store/listings-repo.ts';
import type { LedgerCheck, RowInDoubt } from '../../../src-shared/ledger-check.ts';
import type { TradeWatcher } from './trade-watcher.ts';

export type { LedgerCheck, RowInDoubt } from '../../../src-shared/ledger-check.ts';

/**
 * "Check ledger": re-reads what the service can tell (the pending trades,
 * through the scheduler like every request, which marks what they sold; the
 * balance) and lists the ledger rows whose state is in doubt. Also clears
 * rows the service no longer holds, when the trader says so.
 */
export interface LedgerChecker {
  check(): Promise<LedgerCheck>;
  /**
   * Removes these listings from the ledger when the service no longer holds
   * them (sold, not on the service); a standing one is refused, since
   * forgetting it would lose its listing ID. Returns how many were removed.
   */
  clear(assetIds: readonly string[]): number;
}

export function createLedgerChecker(deps: {
  store: Pick<Store, 'transaction'>;
  repos: Repos;
  trades: Pick<TradeWatcher, 'checkNow' | 'refreshBalance'>;
  clock: Clock;
}): LedgerChecker {
  const { repos } = deps;

  const reread = async (read: () => Promise<unknown>) => {
    try {
      await read();
      return { ok: true };
    } catch (error) {
      return { ok: false, error: (isApiError(error) ? error : new ApiError('network', String(error))).toJSON() };
    }
  };

  const rowsInDoubt = (): RowInDoubt[] => {
    const rows: RowInDoubt[] = [];
    for (const l of repos.listings.inStates([...ENDED_STATES])) {
      if (l.state === 'sold') continue; // settled: sold, and its trade has left the list
      rows.push({
        kind: 'listing', key: l.asset_id, state: l.state,
        reason: l.state === 'sold_in_trade'
          ? `sold in trade ${l.trade_id ?? '?'}, which is still pending`
          : `not on the service: ${l.state_reason ?? 'the service no longer knows it'}; clear it, or list the asset again`,
        ...(l.trade_id === null ? {} : { tradeId: l.trade_id }),
      });
    }
    for (const l of repos.listings.idUnknown()) {
      rows.push({ kind: 'listing', key: l.asset_id, state: l.state, reason: 'its listing ID is unknown (a lost create marked done): delete it and list it again to edit it' });
    }
    for (const outcome of listUnknownOutcomes(repos)) {
      for (const { change } of outcome.items) {
        const listing = 'asset_id' in change;
        const key = listing ? change.asset_id : 'sku' in change ? change.sku : '';
        const evidence = outcome.evidence.find((e) => e.target.endsWith(`:${key}`));
        rows.push({
          kind: listing ? 'listing' : 'buyOrder', key, state: 'unknown_outcome', outcomeId: outcome.id,
          reason: `${outcome.endpoint} may or may not have been applied (${outcome.reason})${evidence ? `; since then the service said: ${evidence.message}` : ''}`,
        });
      }
    }
    return rows;
  };

  return {
    async check() {
      const [trades, balance] = await Promise.all([
        reread(() => deps.trades.checkNow({ fresh: true })),
        reread(() => deps.trades.refreshBalance()),
      ]);
      return { checkedAt: deps.clock.now(), trades, balance, rows: rowsInDoubt() };
    },
    clear(assetIds) {
      return deps.store.transaction(() => {
        const ended = assetIds.filter((id) => {
          const row = repos.listings.get(id);
          return row !== null && (row.state === 'sold' || row.state === 'not_on_service');
        });
        return ended.length === 0 ? 0 : repos.listings.remove(ended);
      });
    },
  };
}

import type { ItemCandidate, ItemSearch } from '../../../src-shared/item-search.ts';
import type { LedgerExport } from '../../core/csv/ledger-export.ts';
import type { TradeHistory } from '../../core/history/trade-history.ts';
import { createProfitReport, type ProfitReport } from '../../core/history/profit-report.ts';
import type { WorkspacePricing } from '../../core/desk/workspace-pricing.ts';
import { createProfitReads } from '../../core/store/profit-reads.ts';
import { DomainError } from '../../core/errors.ts';
import type { ItemNames } from '../../core/items/item-names.ts';
import { itemViewOf } from '../../core/items/item-view.ts';
import type { Handlers } from '../router.ts';
import type { Stamps } from '../stamps.ts';

type HistoryChannels = 'history:summary' | 'history:page' | 'history:exportCsv' | 'history:profit' | 'history:profitSku' | 'history:profitCsv' | 'items:search' | 'items:variants' | 'ledger:exportCsv';

/**
 * Handlers for the History screen (figures, the table a page at a time, its
 * CSV), the ledgers' Export CSV, and item names typed where a SKU is asked
 * for. Each history reply carries the history's stamp.
 */
export interface HistoryChannelServices {
  history(): Pick<TradeHistory, 'summary' | 'page' | 'csv' | 'repo'>;
  /** The fee percentage and the source holdings are valued with, from the pricing settings. */
  pricing(): Pick<WorkspacePricing, 'service'>;
  ledgerExport(): Pick<LedgerExport, 'exportLedger'>;
  names(): ItemNames | null;
}

export function historyHandlers(services: HistoryChannelServices, stamps: Stamps): Pick<Handlers, HistoryChannels> {
  const names = (): ItemNames => {
    const found = services.names();
    if (found === null) throw new DomainError('conflict', 'Item names are not available in this build: type the SKU');
    return found;
  };
  const candidates = (n: ItemNames, skus: readonly string[]): ItemCandidate[] =>
    skus.slice(0, 20).map((sku) => ({ sku, name: n.name(sku), detail: n.internalName(sku) }));

  /** Profit over the workspace's store as it is now: its fee and value source read at each question. */
  const profit = (): ProfitReport => {
    const { service } = services.pricing();
    return createProfitReport(createProfitReads(services.history().repo.store.db), () => {
      const s = service.settings();
      return { feePercent: s.feePercent, valueSource: s.valueSource ?? service.sources.repo.sources()[0]?.source_id ?? null };
    });
  };

  return {
    'history:profit': ({ range, by }) => ({ stamp: stamps.of('history'), ...profit().report(range, by) }),
    'history:profitSku': ({ range, sku }) => ({ stamp: stamps.of('history'), ...profit().sku(range, sku) }),
    'history:profitCsv': ({ range, by, format }) => profit().csv(range, by, format),
    'history:summary': (range) => ({ stamp: stamps.of('history'), ...services.history().summary(range) }),
    'history:page': ({ range, show, offset, limit, text }) => ({ stamp: stamps.of('history'), offset, ...services.history().page(range, show, offset, limit, text) }),
    'history:exportCsv': ({ range, show, text, format, timeZone }) => services.history().csv(range, show, { format, timeZone, text }),
    'ledger:exportCsv': async ({ domain, filter, format }) => services.ledgerExport().exportLedger(domain, filter, format),
    'items:search': async ({ text, limit }): Promise<ItemSearch> => {
      const n = names();
      // The name → SKU tables are built once, on a later turn (about half a second, the first time).
      await n.warm({ reverse: true });
      const typed = n.resolveTyped(text);
      const resolved: ItemSearch['resolved'] = typed.ok
        ? { ok: true, sku: typed.sku, item: itemViewOf(n, typed.sku) ?? unknownItem(typed.sku) }
        : { ok: false, reason: typed.reason, message: typed.message.slice(0, 1_000), candidates: candidates(n, typed.candidates) };
      const matches = n.suggest(text, limit).map((m) => ({ name: m.name, sku: m.sku, candidates: candidates(n, m.candidates) }));
      // A name nothing starts and nothing resolves to may be a few typing mistakes from one.
      const nearMiss = !typed.ok && typed.reason !== 'ambiguous' && typed.reason !== 'empty' && matches.length === 0 ? n.nearMiss(text) : null;
      return { text, resolved, matches, nearMiss };
    },
    'items:variants': async ({ sku }) => {
      const n = names();
      await n.warm({ reverse: true });
      const variants = n.variants(sku);
      return variants === null ? { sku, name: n.name(sku), groups: null } : { sku, name: variants.name, groups: variants.groups.map((g) => ({ ...g, options: [...g.options] })) };
    },
  };
}

const unknownItem = (sku: string) => ({
  name: sku, known: false, quality: null, color: null, effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true,
});

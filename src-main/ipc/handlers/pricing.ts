import type { PricingState } from '../../../src-shared/contract-pricing.ts';
import type { CostLedger } from '../../core/costs/cost-ledger.ts';
import { nameToSkuOf } from '../../core/costs/amount-table.ts';
import { readCostCsv } from '../../core/costs/cost-csv.ts';
import type { ItemNames } from '../../core/items/item-names.ts';
import type { PricingService } from '../../core/pricing/pricing-service.ts';
import type { RepriceSchedule } from '../../core/pricing/reprice-schedule.ts';
import { notFound } from '../../core/errors.ts';
import type { Handlers } from '../router.ts';
import type { Stamps } from '../stamps.ts';

type PricingChannels =
  | 'pricing:state' | 'pricing:updateSettings' | 'pricing:addSource' | 'pricing:changeSource' | 'pricing:removeSource' | 'pricing:readNow'
  | 'pricing:addRule' | 'pricing:changeRule' | 'pricing:removeRule' | 'pricing:repriceNow' | 'pricing:page' | 'costs:of' | 'costs:importCsv';

/**
 * Handlers for the Pricing screen (its sources, rules, schedule and
 * reprices) and the costs the ledger's screens show. A change answers with
 * the whole state, stamped; a source's read is started, never waited for
 * (its progress comes as `pricing:changed`).
 */
export interface PricingChannelServices {
  pricing(): {
    readonly service: PricingService;
    readonly schedule: Pick<RepriceSchedule, 'nextAt' | 'running'>;
    readonly costs: Pick<CostLedger, 'nextCosts' | 'heldUnits' | 'setManual'>;
  };
  names(): ItemNames | null;
}

/** How many reprices the screen lists. */
const RUNS_SHOWN = 10;

export function pricingHandlers(services: PricingChannelServices, stamps: Stamps): Pick<Handlers, PricingChannels> {
  const p = () => services.pricing();
  const state = (): PricingState => {
    const { service, schedule } = p();
    const settings = service.settings();
    return {
      stamp: stamps.of('pricing'),
      sources: service.sources.list(),
      rules: service.rules(),
      settings,
      schedule: { ...settings.schedule, nextAt: schedule.nextAt(), running: schedule.running() },
      runs: service.runs(RUNS_SHOWN),
      busy: service.busy(),
    };
  };
  /** Runs a change, then answers with the state after it. */
  const after = (change: () => unknown): PricingState => {
    change();
    return state();
  };
  return {
    'pricing:state': state,
    'pricing:updateSettings': (patch) => after(() => p().service.updateSettings(patch)),
    'pricing:addSource': ({ config }) => after(() => p().service.sources.add(config)),
    'pricing:changeSource': ({ id, config }) => after(() => p().service.sources.change(id, config)),
    'pricing:removeSource': ({ id }) => after(() => p().service.sources.remove(id)),
    'pricing:readNow': ({ id }) => after(() => void p().service.sources.readNow(id).catch(() => undefined)),
    'pricing:addRule': ({ rule }) => after(() => p().service.addRule(rule)),
    'pricing:changeRule': ({ id, rule }) => after(() => p().service.changeRule(id, rule)),
    'pricing:removeRule': ({ id }) => after(() => p().service.removeRule(id)),
    'pricing:repriceNow': async () => {
      const { service } = p();
      const result = await service.repriceNow();
      const run = service.runs(RUNS_SHOWN).find((r) => r.id === result.runId);
      if (!run) throw notFound(`The reprice ${result.runId} is not in the store`);
      return run;
    },
    'pricing:page': ({ runId, outcome, offset, limit }) => ({ ...p().service.page(runId, outcome, offset, limit), offset }),
    'costs:of': ({ skus }) => {
      const { costs } = p();
      const next = costs.nextCosts(skus);
      const held = costs.heldUnits(skus);
      return { costs: skus.map((sku) => ({ sku, unitCost: next.get(sku)?.unitCost ?? null, held: held.get(sku) ?? 0 })) };
    },
    'costs:importCsv': async ({ text }) => {
      const names = services.names();
      // A line may name its item: the name → SKU tables are built once, on a later turn.
      if (names !== null) await names.warm({ reverse: true });
      const read = readCostCsv(text, nameToSkuOf(names));
      if (read.costs.length > 0) p().costs.setManual(read.costs);
      return {
        skus: new Set(read.costs.map((c) => c.sku)).size,
        units: read.costs.reduce((n, c) => n + c.quantity, 0),
        refused: read.errors.slice(0, 50).map((e) => ({ line: e.line, reason: e.reason })),
        refusedCount: read.errors.length,
      };
    },
  };
}

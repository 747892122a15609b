import { DEFAULT_PRICING_SETTINGS, pricingSettings } from '../../../src-shared/pricing.ts';
import type { ApplyService } from '../apply/apply-draft.ts';
import { createCostLedger, type CostLedger } from '../costs/cost-ledger.ts';
import { costMarks } from '../costs/cost-marks.ts';
import type { PriceReferences } from '../drafts/price-references.ts';
import type { TradeHistory } from '../history/trade-history.ts';
import { createPricingService, type PricingDeps, type PricingService } from '../pricing/pricing-service.ts';
import { createRepriceSchedule, type RepriceSchedule } from '../pricing/reprice-schedule.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';

/**
 * A workspace's costs and pricing, composed: the cost ledger counts what
 * History records (after each recording, a part at a time) and the price
 * guard marks listings against it; the price sources, rules and reprices;
 * and the schedule that applies what the guard does not mark. Made in two
 * steps, as the workspace's other services need them: the costs before the
 * drafts (whose guard reads them), the pricing after the apply.
 */

export interface WorkspaceCosts {
  readonly costs: CostLedger;
  /** What the drafts' price guard holds listings against. */
  readonly references: PriceReferences;
  /** The pricing, once made (see `openPricing`). */
  pricing: WorkspacePricing | null;
}

export interface WorkspacePricing {
  readonly costs: CostLedger;
  readonly service: PricingService;
  readonly schedule: RepriceSchedule;
  start(): void;
  close(): Promise<void>;
}

const SETTINGS_KEY = 'pricing.settings';

export function openCosts(deps: { store: Store; repos: Pick<Repos, 'settings'> }): WorkspaceCosts {
  const settings = () => deps.repos.settings.get(SETTINGS_KEY, pricingSettings, DEFAULT_PRICING_SETTINGS);
  const later: { pricing: WorkspacePricing | null } = { pricing: null };
  const costs = createCostLedger({
    store: deps.store,
    // Each sale keeps the source's sell price of its SKU when it was counted.
    sourcePrice: (sku) => {
      const service = later.pricing?.service;
      if (!service) return null;
      const id = service.settings().valueSource ?? service.sources.repo.sources()[0]?.source_id;
      return id === undefined ? null : service.sources.repo.price(id, sku)?.sell ?? null;
    },
  });
  return Object.assign(later, { costs, references: costMarks(costs, () => settings().costGuard) });
}

export function openPricing(made: WorkspaceCosts, deps: Omit<PricingDeps, 'costs' | 'turn'> & {
  apply: ApplyService;
  history: Pick<TradeHistory, 'on'>;
}): WorkspacePricing {
  const { costs } = made;
  const { apply, history, ...rest } = deps;
  const service = createPricingService({ ...rest, costs });
  const schedule = createRepriceSchedule({
    pricing: service, apply, activity: deps.repos.activity, clock: deps.clock,
    draftName: (id) => deps.repos.drafts.get(id)?.name ?? null,
  });
  // Every recording may complete purchases and sales: they are counted after it.
  const offHistory = history.on('changed', () => void costs.sync().catch(() => undefined));
  const pricing: WorkspacePricing = {
    costs,
    service,
    schedule,
    start() {
      void costs.sync().catch(() => undefined);
      service.start();
      schedule.start();
    },
    async close() {
      offHistory();
      await schedule.stop();
      await service.stop();
    },
  };
  made.pricing = pricing;
  return pricing;
}

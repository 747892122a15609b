import { DEFAULT_PRICING_SETTINGS, pricingSettings, repriceRule, type PricingSettings, type RepriceRule, type RuleView } from '../../../src-shared/pricing.ts';
import type { RepricePage, RepriceRunView } from '../../../src-shared/reprice.ts';
import type { PriceGuard } from '../../../src-shared/price-guard.ts';
import type { Clock } from '../clock.ts';
import type { CostLedger } from '../costs/cost-ledger.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import { conflict, notFound } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { ItemNames } from '../items/item-names.ts';
import { loadItemKinds } from '../items/item-kinds.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { createRepriceRepo, type RepriceRepo, type RunRow } from '../store/reprice-repo.ts';
import { withoutDiskWait } from '../store/without-disk-wait.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { createPriceSources, type PriceSources } from './price-sources.ts';
import { nameToSkuOf } from '../costs/amount-table.ts';
import { runReprice, type RepriceResult } from './reprice-job.ts';
import { ruleOrder, skuParts, type RuleEntry } from './rule-match.ts';

/**
 * Pricing in one workspace: the price sources, the trader's rules and
 * settings, and the reprices (by hand here; on the schedule, see
 * reprice-schedule.ts), one at a time.
 */
export interface PricingService {
  readonly sources: PriceSources;
  readonly reprices: RepriceRepo;
  settings(): PricingSettings;
  updateSettings(patch: Partial<PricingSettings>): PricingSettings;
  rules(): RuleView[];
  addRule(rule: RepriceRule): RuleView;
  changeRule(id: number, rule: RepriceRule): RuleView;
  removeRule(id: number): void;
  orderRules(ids: readonly number[]): RuleView[];
  /** Reprices every row a rule covers into a new draft (made current), its changes and held rows with why. */
  repriceNow(): Promise<RepriceResult>;
  /** A reprice the schedule asks for (see reprice-schedule.ts). */
  reprice(kind: 'now' | 'scheduled', name: string): Promise<RepriceResult>;
  busy(): boolean;
  runs(limit?: number): RepriceRunView[];
  page(runId: number, outcome: 'change' | 'held' | null, offset: number, limit: number): RepricePage;
  /** A run moved on (its apply, say). */
  noteRun(runId: number, fields: Parameters<RepriceRepo['updateRun']>[1]): void;
  start(): void;
  stop(): Promise<void>;
  on(event: 'changed', listener: () => void): Unsubscribe;
}

export interface PricingDeps {
  store: Store;
  repos: Repos;
  clock: Clock;
  drafts: DraftService;
  costs: Pick<CostLedger, 'nextCosts'>;
  names: ItemNames | null;
  guard: () => PriceGuard;
  pricedbUrl?: string;
  turn?: Turn;
}

const SETTINGS_KEY = 'pricing.settings';

export function createPricingService(deps: PricingDeps): PricingService {
  const { store, repos, clock } = deps;
  const turn = deps.turn ?? nextTurn;
  const reprices = createRepriceRepo(store);
  const emitter = createEmitter<{ changed: undefined }>();
  const changed = () => emitter.emit('changed', undefined);
  const ruleSkus = () => reprices.rules().flatMap((r) => (r.rule.scope.by === 'sku' ? [r.rule.scope.sku] : []));
  const names = deps.names;
  const sources = createPriceSources({
    store, clock, turn,
    wanted: () => [...new Set([...reprices.ledgerSkus(), ...ruleSkus()])],
    skuForName: nameToSkuOf(names),
    ...(deps.pricedbUrl ? { pricedbUrl: deps.pricedbUrl } : {}),
  });
  sources.on('changed', changed);
  let running: Promise<RepriceResult> | null = null;

  const settings = () => repos.settings.get(SETTINGS_KEY, pricingSettings, DEFAULT_PRICING_SETTINGS);
  const viewOf = (r: { rule_id: number; position: number; rule: RepriceRule; updated_at: number }): RuleView => ({ id: r.rule_id, position: r.position, rule: r.rule, updatedAt: r.updated_at });
  const ruleView = (id: number) => {
    const found = reprices.rules().find((r) => r.rule_id === id);
    if (!found) throw notFound(`There is no rule ${id}`);
    return viewOf(found);
  };
  const checkSource = (rule: RepriceRule) => {
    if (sources.repo.source(rule.source) === null) throw conflict(`The rule follows a price source that is not there (${rule.source}): choose one of yours`);
  };

  async function reprice(kind: 'now' | 'scheduled', name: string): Promise<RepriceResult> {
    if (running) throw conflict('A reprice is being built: wait for it to end');
    const entries: RuleEntry[] = ruleOrder(reprices.rules().map((r) => ({ id: r.rule_id, position: r.position, rule: r.rule })));
    const byKind = entries.some((e) => e.rule.scope.by === 'filter' && e.rule.scope.filter.kinds !== undefined);
    const kinds = byKind ? await loadItemKinds() : null;
    const known = sources.repo.sources();
    const sourceNames = new Map(known.map((s) => [s.source_id, s.config.name]));
    const s = settings();
    const run = runReprice({
      repos, drafts: deps.drafts, reprices, rules: entries,
      facts: (sku) => {
        const parts = skuParts(sku);
        return { ...parts, kind: kinds?.get(parts.defindex) ?? 'other', name: (names?.name(sku) ?? sku).toLowerCase() };
      },
      prices: (id, skus) => sources.prices(id, skus),
      sourceName: (id) => sourceNames.get(id) ?? id,
      sourcesOff: new Set(known.filter((s) => !s.config.enabled).map((s) => s.source_id)),
      costs: (skus) => deps.costs.nextCosts(skus),
      guard: deps.guard(), costGuard: s.costGuard,
      now: () => clock.now(), turn,
      partWrites: (write) => withoutDiskWait(store, write),
    }, kind, name);
    running = run;
    try {
      return await run;
    } finally {
      running = null;
      changed();
    }
  }

  const runView = (r: RunRow): RepriceRunView => ({
    id: r.run_id, kind: r.kind, state: r.state, startedAt: r.started_at, finishedAt: r.finished_at, draftId: r.draft_id, heldDraftId: r.held_draft_id,
    applyRunId: r.apply_run_id, changed: r.changed, marked: r.marked, held: r.held, unchanged: r.unchanged, problem: r.problem,
  });

  return {
    sources,
    reprices,
    settings,
    updateSettings(patch) {
      const next = pricingSettings.parse({ ...settings(), ...patch });
      repos.settings.set(SETTINGS_KEY, next);
      changed();
      return next;
    },
    rules: () => reprices.rules().map(viewOf),
    addRule(rule) {
      const checked = repriceRule.parse(rule);
      checkSource(checked);
      const id = reprices.addRule(checked, clock.now());
      changed();
      return ruleView(id);
    },
    changeRule(id, rule) {
      const checked = repriceRule.parse(rule);
      checkSource(checked);
      if (!reprices.changeRule(id, checked, clock.now())) throw notFound(`There is no rule ${id}`);
      changed();
      return ruleView(id);
    },
    removeRule(id) {
      if (!reprices.removeRule(id)) throw notFound(`There is no rule ${id}`);
      changed();
    },
    orderRules(ids) {
      reprices.orderRules(ids);
      changed();
      return reprices.rules().map(viewOf);
    },
    repriceNow: () => reprice('now', `Reprice ${new Date(clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`),
    reprice,
    busy: () => running !== null,
    runs: (limit = 20) => reprices.runs(limit).map(runView),
    page(runId, outcome, offset, limit) {
      if (reprices.run(runId) === null) throw notFound(`There is no reprice ${runId}`);
      const rows = reprices.rows(runId, outcome, offset, limit).map((r) => ({
        domain: r.domain, key: r.key, sku: r.sku, name: names?.name(r.sku) ?? r.sku, outcome: r.outcome, ruleId: r.rule_id,
        before: r.before, after: r.after, reason: r.reason, mark: r.mark,
      }));
      return { total: reprices.countRows(runId, outcome), offset, rows };
    },
    noteRun(runId, fields) {
      reprices.updateRun(runId, fields);
      changed();
    },
    start: () => sources.start(),
    stop: () => sources.stop(),
    on: (event, listener) => emitter.on(event, () => listener()),
  };
}

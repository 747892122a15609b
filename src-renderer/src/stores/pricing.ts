import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ChannelInput, CostImport, PricingState, RepricePage, RepriceRule, RepriceRunView, SourceConfig } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';
import { coalesce } from '../lib/coalesce.ts';

/**
 * Pricing as main answers it: the price sources with how fresh each is, the
 * repricing rules, the schedule and the latest reprices; a reprice's rows a
 * page at a time; the costs of the SKUs a screen shows. Main reads the
 * sources, reprices and counts costs; this store asks and shows. Every
 * change answers with the whole state, and `pricing:changed` says when to
 * ask again. Each action throws DeskError for the panel that started it.
 */
export const usePricingStore = defineStore('pricing', () => {
  const state = shallowRef<PricingState | null>(null);
  /** Bumped by every `pricing:changed` once followed: what was read of costs may be out of date. */
  const changes = shallowRef(0);
  let off: (() => void) | null = null;

  const accept = (next: PricingState): PricingState => {
    if (state.value === null || next.stamp >= state.value.stamp) state.value = next;
    return state.value;
  };
  const load = coalesce(async () => void accept(await call('pricing:state', {})));

  /** Whether a screen showing pricing has opened: only then is the whole state read again on main's word. */
  let started = false;

  /** Follows main's word of changes: `changes` moves, and the state is read again once a screen has started it. */
  function follow(): void {
    off ??= onEvent('pricing:changed', ({ stamp }) => {
      changes.value += 1;
      if (started && (state.value === null || stamp > state.value.stamp)) void load().catch(() => undefined);
    });
  }

  /** A screen showing pricing opened: read it, and follow main's word of changes. */
  function start(): Promise<void> {
    started = true;
    follow();
    return load();
  }

  const updateSettings = async (patch: ChannelInput<'pricing:updateSettings'>) => accept(await call('pricing:updateSettings', patch));
  const addSource = async (config: SourceConfig) => accept(await call('pricing:addSource', { config }));
  const changeSource = async (id: string, config: SourceConfig) => accept(await call('pricing:changeSource', { id, config }));
  const removeSource = async (id: string) => accept(await call('pricing:removeSource', { id }));
  const readNow = async (id?: string) => accept(await call('pricing:readNow', id === undefined ? {} : { id }));
  const addRule = async (rule: RepriceRule) => accept(await call('pricing:addRule', { rule }));
  const changeRule = async (id: number, rule: RepriceRule) => accept(await call('pricing:changeRule', { id, rule }));
  const removeRule = async (id: number) => accept(await call('pricing:removeRule', { id }));

  /** Builds the reprice's draft (main makes it the current one); its rows come by `page`. */
  async function repriceNow(): Promise<RepriceRunView> {
    const run = await call('pricing:repriceNow', {});
    await load();
    return run;
  }

  const page = (runId: number, outcome: 'change' | 'held' | null, offset: number, limit: number): Promise<RepricePage> =>
    call('pricing:page', { runId, outcome, offset, limit });

  /** The reprice that made a draft (its changes, or on the schedule its marked ones), if one did. */
  const runOfDraft = (draftId: string): RepriceRunView | null =>
    state.value?.runs.find((r) => r.draftId === draftId || r.heldDraftId === draftId) ?? null;

  /** What a sale of each SKU would cost next, and the units whose cost is known. */
  async function costsOf(skus: readonly string[]): Promise<Map<string, { unitCost: number | null; held: number }>> {
    if (skus.length === 0) return new Map();
    const { costs } = await call('costs:of', { skus: [...new Set(skus)].slice(0, 500) });
    return new Map(costs.map((c) => [c.sku, { unitCost: c.unitCost, held: c.held }]));
  }

  /** Costs from a CSV file's text: each SKU it names has its hand-set costs replaced. */
  const importCosts = (text: string): Promise<CostImport> => call('costs:importCsv', { text });

  return { state, changes, start, follow, load, importCosts, updateSettings, addSource, changeSource, removeSource, readNow, addRule, changeRule, removeRule, repriceNow, page, runOfDraft, costsOf };
});

import { shallowRef, watch, type ShallowRef } from 'vue';
import { coalesce } from '../lib/coalesce.ts';
import { usePricingStore } from '../stores/pricing.ts';

/** A SKU's cost as a row shows it: what a sale would cost next (null: not known). */
export interface ShownCost {
  readonly unitCost: number | null;
}

/** SKUs asked for at a time: what the contract's `costs:of` takes. */
const MAX_SKUS = 500;

/** SKUs kept before the kept costs are dropped and asked for again: a bound on a long scroll's memory. */
const MAX_KEPT = 5_000;

/**
 * The costs of the rows a table holds, kept by SKU: when its pages change
 * (one ask at a time) only SKUs not yet known are asked for, so a scroll
 * does not queue a read of every loaded row's cost between the pages the
 * trader waits for. Main's word that pricing changed (a cost counted, costs
 * imported) drops what is kept and asks again for what is loaded.
 */
export function useShownCosts(rows: () => { readonly version: number; loadedRows(): ReadonlyArray<{ readonly sku: string }> }): ShallowRef<ReadonlyMap<string, ShownCost>> {
  const pricing = usePricingStore();
  const costs = shallowRef<ReadonlyMap<string, ShownCost>>(new Map());
  let kept = new Map<string, ShownCost>();
  /** Bumped when what is kept is dropped: an answer asked for before is not kept. */
  let generation = 0;
  const read = coalesce(async () => {
    const loaded = new Set(rows().loadedRows().map((r) => r.sku).filter((s) => s !== ''));
    const missing = [...loaded].filter((s) => !kept.has(s)).slice(-MAX_SKUS);
    if (missing.length === 0) return;
    const asked = generation;
    const answer = await pricing.costsOf(missing);
    if (asked !== generation) return;
    if (kept.size + missing.length > MAX_KEPT) kept = new Map([...kept].filter(([s]) => loaded.has(s)));
    for (const s of missing) kept.set(s, answer.get(s) ?? { unitCost: null });
    costs.value = new Map(kept);
  });
  const readNow = () => void read().catch(() => undefined);
  pricing.follow();
  watch(() => rows().version, readNow, { immediate: true });
  watch(() => pricing.changes, () => {
    generation += 1;
    kept = new Map();
    readNow();
  });
  return costs;
}

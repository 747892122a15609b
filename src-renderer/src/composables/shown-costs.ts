import { shallowRef, watch, type ShallowRef } from 'vue';
import { coalesce } from '../lib/coalesce.ts';
import { usePricingStore } from '../stores/pricing.ts';

/** A SKU's cost as a row shows it: what a sale would cost next (null: not known). */
export interface ShownCost {
  readonly unitCost: number | null;
}

/** SKUs asked for at a time: what the contract's `costs:of` takes. */
const MAX_SKUS = 500;

/**
 * The costs of the rows a table holds: asked for their SKUs whenever its
 * pages change (one ask at a time), kept by SKU.
 */
export function useShownCosts(rows: () => { readonly version: number; loadedRows(): ReadonlyArray<{ readonly sku: string }> }): ShallowRef<ReadonlyMap<string, ShownCost>> {
  const pricing = usePricingStore();
  const costs = shallowRef<ReadonlyMap<string, ShownCost>>(new Map());
  const read = coalesce(async () => {
    const skus = [...new Set(rows().loadedRows().map((r) => r.sku).filter((s) => s !== ''))].slice(-MAX_SKUS);
    costs.value = await pricing.costsOf(skus);
  });
  watch(() => rows().version, () => void read().catch(() => undefined), { immediate: true });
  return costs;
}

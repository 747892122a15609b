import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ItemVariantsView } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';

/**
 * The item names main knows (the service's catalog and the game's schema):
 * the names a typed text may start, each with its SKU, what the text
 * resolves to (or which name it is a few typos from), and what else the
 * chosen item comes as. Each field asks for its own text; the item being
 * chosen is kept, as the form shows it.
 */
export const useItemsStore = defineStore('items', () => {
  /** Throws DeskError. */
  const search = (text: string, limit: number) => call('items:search', { text, limit });
  /** Main reads the item list on the first question (about a second): a field asks it while the trader starts typing. */
  const warm = () => void call('items:search', { text: '', limit: 1 }).catch(() => undefined);

  /** What else the SKU being chosen comes as, as main last answered it; null before one is chosen. */
  const variants = shallowRef<ItemVariantsView | null>(null);
  let asked = 0;
  /** Asks what else `sku` comes as ('' clears); the newest question's answer is kept. Throws DeskError. */
  async function chooseFrom(sku: string): Promise<void> {
    const n = (asked += 1);
    if (sku === '') {
      variants.value = null;
      return;
    }
    const answer = await call('items:variants', { sku });
    if (n === asked) variants.value = answer;
  }
  return { search, warm, variants, chooseFrom };
});

import { defineStore } from 'pinia';
import { call } from '../api.ts';

/**
 * The item names main knows (the service's catalog and the game's schema):
 * the names a typed text may start, each with its SKU, and what the text
 * resolves to. Each field asks for its own text; nothing is kept here.
 */
export const useItemsStore = defineStore('items', () => {
  /** Throws DeskError. */
  const search = (text: string, limit: number) => call('items:search', { text, limit });
  /** Main reads the item list on the first question (about a second): a field asks it while the trader starts typing. */
  const warm = () => void call('items:search', { text: '', limit: 1 }).catch(() => undefined);
  return { search, warm };
});

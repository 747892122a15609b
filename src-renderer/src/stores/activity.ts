import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ActivityEntry } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';
import { guarded } from './guarded.ts';

const LIMIT = 1000;

/** The log of what was sent and what came back, newest first, filterable. */
export const useActivityStore = defineStore('activity', () => {
  const entries = ref<ActivityEntry[]>([]);
  const text = ref('');
  const outcome = ref('');
  const loading = ref(false);
  let started = false;

  const load = () =>
    guarded(loading, async () => {
      const t = text.value.trim();
      entries.value = await call('activity:list', {
        limit: LIMIT,
        ...(t === '' ? {} : { text: t }),
        ...(outcome.value === '' ? {} : { outcome: outcome.value }),
      });
    });

  /** Whether a live entry belongs in the list under the current filter. */
  function matches(entry: ActivityEntry): boolean {
    const t = text.value.trim().toLowerCase();
    if (outcome.value !== '' && entry.outcome !== outcome.value) return false;
    if (t === '') return true;
    return entry.endpoint.toLowerCase().includes(t) || entry.message.toLowerCase().includes(t);
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('activity:added', (entry) => {
      // An entry pushed again has its outcome now: it replaces what the list shows of it.
      const shown = entries.value.filter((e) => e.id !== entry.id);
      if (shown.length < entries.value.length) entries.value = matches(entry) ? entries.value.map((e) => (e.id === entry.id ? entry : e)) : shown;
      else if (matches(entry)) entries.value = [entry, ...entries.value].slice(0, LIMIT);
    });
    void load();
  }

  return { entries, text, outcome, loading, load, matches, start };
});

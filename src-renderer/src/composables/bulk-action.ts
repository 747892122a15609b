import { ref, type Ref } from 'vue';
import type { BulkOp } from '../../../src-shared/contract.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { useNoticesStore } from '../stores/notices.ts';

/**
 * Sends a bulk formula over the selected rows into the draft (one
 * drafts:bulk call naming their asset IDs or SKUs) and reports what changed
 * and what the draft refused. Returns whether everything was taken. Rows
 * come with the price the table shows, from which their new values show
 * at once.
 */
export function useBulkAction(target: 'listings' | 'buyOrders', selectedRows: () => ReadonlyArray<{ key: string; price: number }>) {
  const drafts = useDraftsStore();
  const notices = useNoticesStore();
  const busy: Ref<boolean> = ref(false);
  const noun = target === 'listings' ? 'listings' : 'buy orders';

  async function run(op: BulkOp): Promise<boolean> {
    busy.value = true;
    try {
      const result = await drafts.bulk(target, selectedRows(), op);
      if (result.refused.length > 0) {
        const sample = result.refused.slice(0, 3).map((r) => (r.id ? `${r.id}: ${r.reason}` : r.reason)).join('; ');
        notices.push('error', `Nothing changed: ${result.refused.length.toLocaleString()} ${noun} cannot take this (${sample}).`);
        return false;
      }
      notices.success(`${result.changed.toLocaleString()} ${noun} changed in the draft.`);
      return true;
    } catch (err) {
      notices.error(err);
      return false;
    } finally {
      busy.value = false;
    }
  }

  return { busy, run };
}

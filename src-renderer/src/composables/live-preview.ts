import { onBeforeUnmount, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue';

/**
 * What main makes of a form as the trader types it (a bulk edit's preview,
 * an inventory pricing): asked once a burst of changes settles, `delayMs`
 * after the last, and only the latest ask's answer is shown: an answer to an
 * older ask, or one that comes after the form stopped asking, is dropped.
 * `input` is what to ask about, or null for nothing (the preview clears);
 * `sources` are what else the answer depends on (the selection).
 */
export function useLivePreview<I, O>(
  input: () => I | null,
  ask: (input: I) => Promise<O>,
  options: { readonly delayMs: number; readonly sources?: readonly WatchSource[] },
): Readonly<ShallowRef<O | null>> {
  const preview = shallowRef<O | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let asked = 0;
  watch([input, ...(options.sources ?? [])], () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const current = input();
    if (current === null) {
      asked += 1;
      preview.value = null;
      return;
    }
    timer = setTimeout(async () => {
      const mine = ++asked;
      try {
        const answer = await ask(current);
        if (mine === asked) preview.value = answer;
      } catch {
        if (mine === asked) preview.value = null;
      }
    }, options.delayMs);
  }, { immediate: true });
  onBeforeUnmount(() => timer !== null && clearTimeout(timer));
  return preview;
}

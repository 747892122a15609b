import { onBeforeUnmount, ref, type Ref } from 'vue';

/**
 * A search box's text, handed on a moment after the last keystroke (main
 * answers each search: a word typed is one question, not one a letter).
 * `apply` gets undefined for an empty box: "no search".
 */
export function useTypedSearch(
  initial: string,
  apply: (text: string | undefined) => void,
  waitMs = 200,
): { text: Ref<string>; typed: () => void; take: (value: string) => void } {
  const text = ref(initial);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  onBeforeUnmount(stop);
  return {
    text,
    /** A text put in the box for the trader (a "did you mean" taken): searched at once. */
    take(value) {
      stop();
      text.value = value;
      apply(value);
    },
    typed() {
      stop();
      timer = setTimeout(() => {
        timer = null;
        apply(text.value.trim() === '' ? undefined : text.value);
      }, waitMs);
    },
  };
}

import { onBeforeUnmount, ref, type Ref } from 'vue';

/**
 * A search box's text, handed on a moment after the last keystroke (main
 * answers each search: a word typed is one question, not one a letter).
 * `apply` gets undefined for an empty box: "no search".
 */
export function useTypedSearch(initial: string, apply: (text: string | undefined) => void, waitMs = 200): { text: Ref<string>; typed: () => void } {
  const text = ref(initial);
  let timer: ReturnType<typeof setTimeout> | null = null;
  onBeforeUnmount(() => {
    if (timer !== null) clearTimeout(timer);
  });
  return {
    text,
    typed() {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        apply(text.value.trim() === '' ? undefined : text.value);
      }, waitMs);
    },
  };
}

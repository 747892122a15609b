import { defineStore } from 'pinia';
import { ref } from 'vue';
import { errorViewOf } from '../bridge/api.ts';
import { wordError } from '../lib/error-text.ts';

export type NoticeTone = 'error' | 'info' | 'success';

export interface Notice {
  readonly id: number;
  readonly tone: NoticeTone;
  readonly text: string;
  /** The technical side of an error, for its Details disclosure. */
  readonly details: readonly string[];
}

/**
 * The desk's message strip: errors (in the trader's words, from
 * wordError, with their technical details apart) and short confirmations. Info fades on its own; an error
 * stays until dismissed, so a failure is never missed while looking away.
 */
export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([]);
  let nextId = 1;

  function push(tone: NoticeTone, text: string, details: readonly string[] = []): number {
    // The same message twice in a row is one notice, not a stack of them.
    const last = notices.value[notices.value.length - 1];
    if (last && last.text === text && last.tone === tone) return last.id;
    const id = nextId++;
    notices.value = [...notices.value.slice(-4), { id, tone, text, details }];
    if (tone !== 'error') setTimeout(() => dismiss(id), 5000);
    return id;
  }

  function error(err: unknown): number {
    const worded = wordError(errorViewOf(err));
    return push('error', worded.text, worded.details);
  }

  function info(text: string): number {
    return push('info', text);
  }

  function success(text: string): number {
    return push('success', text);
  }

  function dismiss(id: number): void {
    notices.value = notices.value.filter((n) => n.id !== id);
  }

  return { notices, push, error, info, success, dismiss };
});

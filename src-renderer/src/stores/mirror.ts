import { shallowRef, type ShallowRef } from 'vue';
import type { EventName, EventPayload } from '../../../src-shared/contract.ts';
import { onEvent } from '../api.ts';
import { loadQuietly } from './guarded.ts';

/** Anything main stamps with the state it was read from. */
export interface Stamped {
  readonly stamp: number;
}

/**
 * A copy of one area of main's state, as main last said it. Replies and
 * events may arrive in any order (an event pushed while a reply was on its
 * way); the newest stamp wins, so the screen is never behind what it was
 * told, and never sticks on an older answer.
 */
export interface Mirror<T extends Stamped> {
  readonly value: ShallowRef<T | null>;
  /** Takes an answer unless an older one than what is shown. */
  accept(next: T): T;
  /** Asks main once (on start, and when a screen needs it fresh). */
  load(): Promise<void>;
  /** Follows main's pushes; call once. */
  follow(): void;
}

export function createMirror<E extends EventName>(read: () => Promise<EventPayload<E>>, event: E): Mirror<EventPayload<E> & Stamped> {
  type T = EventPayload<E> & Stamped;
  const value = shallowRef(null) as ShallowRef<T | null>;
  const accept = (next: T): T => {
    const shown = value.value;
    if (shown === null || next.stamp >= shown.stamp) value.value = next;
    return value.value as T;
  };
  return {
    value,
    accept,
    async load() {
      accept((await read()) as T);
    },
    follow() {
      onEvent(event, (payload) => accept(payload as T));
      loadQuietly(async () => accept((await read()) as T));
    },
  };
}

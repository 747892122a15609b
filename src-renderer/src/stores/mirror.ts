import { customRef, type ShallowRef } from 'vue';
import type { EventName, EventPayloads } from '../../../src-shared/contract.ts';
import { onEvent } from '../bridge/api.ts';
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

/** The events whose payload carries a stamp: those a mirror can follow. */
export type StampedEvent = { [E in EventName]: EventPayloads[E] extends Stamped ? E : never }[EventName];

export function createMirror<E extends StampedEvent>(read: () => Promise<EventPayloads[E]>, event: E): Mirror<EventPayloads[E]> {
  type T = EventPayloads[E];
  const value = latest<T | null>(null);
  const accept = (next: T): T => {
    const shown = value.value;
    if (shown !== null && next.stamp < shown.stamp) return shown;
    value.value = next;
    return next;
  };
  return {
    value,
    accept,
    async load() {
      accept(await read());
    },
    follow() {
      onEvent(event, accept);
      loadQuietly(async () => accept(await read()));
    },
  };
}

/**
 * A shallow ref of a value whose type is a type parameter: Vue's `shallowRef`
 * types one only through a cast (its return type asks whether the value is a
 * ref itself), while `customRef` says what it holds. Holds it as `shallowRef`
 * does: the value as given, effects told only when it is another one.
 */
function latest<T>(initial: T): ShallowRef<T> {
  return customRef<T>((track, trigger) => {
    let current = initial;
    return {
      get() {
        track();
        return current;
      },
      set(next) {
        if (Object.is(next, current)) return;
        current = next;
        trigger();
      },
    };
  });
}

/**
 * A minimal typed event emitter for core services. Node's EventEmitter would
 * do, but its listeners are untyped; this one checks event names and payloads
 * and returns an unsubscribe function, which is what the IPC layer forwards.
 */
export type Unsubscribe = () => void;

export interface Emitter<Events extends Record<string, unknown>> {
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Unsubscribe;
  emit<K extends keyof Events>(event: K, payload: Events[K]): void;
}

export function createEmitter<Events extends Record<string, unknown>>(): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    emit(event, payload) {
      // A copy: a listener may unsubscribe while we iterate.
      for (const listener of [...(listeners.get(event) ?? [])]) {
        (listener as (p: typeof payload) => void)(payload);
      }
    },
  };
}

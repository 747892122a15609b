import type {
  ChannelInput,
  ChannelName,
  ChannelOutput,
  DeskApi,
  ErrorView,
  EventName,
  EventPayload,
} from '../../src-shared/contract.ts';

/**
 * A stand-in for the preload's `window.api` in happy-dom tests: handlers per
 * channel answer like the router does (`{ ok, value }` or `{ ok: false,
 * error }`), and `emit` pushes an event as main would. The end-to-end tests
 * use the real router instead.
 */
export type Handlers = {
  [C in ChannelName]?: (input: ChannelInput<C>) => ChannelOutput<C> | Promise<ChannelOutput<C>>;
};

/** Thrown from a handler to answer `{ ok: false, error }`. */
export class Refusal extends Error {
  readonly view: ErrorView;
  constructor(view: ErrorView) {
    super(view.message);
    this.view = view;
  }
}

export interface FakeApi {
  readonly calls: Array<{ channel: string; input: unknown }>;
  callsTo(channel: ChannelName): unknown[];
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  uninstall(): void;
}

export function installFakeApi(handlers: Handlers): FakeApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: Array<{ channel: string; input: unknown }> = [];
  const api: DeskApi = {
    async invoke(channel, input) {
      calls.push({ channel, input });
      const handler = handlers[channel] as ((i: unknown) => unknown) | undefined;
      if (!handler) return { ok: false, error: { kind: 'internal', message: `no handler for ${channel}` } };
      try {
        // Values cross IPC as copies (structured clone), never as shared objects.
        return { ok: true, value: structuredClone(await handler(structuredClone(input))) as never };
      } catch (err) {
        if (err instanceof Refusal) return { ok: false, error: err.view };
        throw err;
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => void set.delete(listener as (payload: unknown) => void);
    },
  };
  (globalThis as { api?: DeskApi }).api = api;
  return {
    calls,
    callsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.input),
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(payload);
    },
    uninstall() {
      delete (globalThis as { api?: DeskApi }).api;
    },
  };
}

/** Lets pending promise callbacks (store loads after an event) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

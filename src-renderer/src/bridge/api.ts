import type {
  ChannelInput,
  ChannelName,
  ChannelOutput,
  DeskApi,
  ErrorView,
  EventName,
  EventPayloads,
  IpcResult,
} from '../../../src-shared/contract.ts';

declare global {
  interface Window {
    /** Exposed by the preload: the only way out of the sandboxed renderer. */
    readonly api: DeskApi;
  }
}

/**
 * A failed call across the bridge. Handlers in main never throw across it;
 * they answer `{ ok: false, error }`, which this turns back into an exception
 * so stores can use try/catch, while keeping the ErrorView the UI words.
 */
export class DeskError extends Error {
  override readonly name = 'DeskError';
  readonly view: ErrorView;
  readonly channel: string;

  constructor(channel: string, view: ErrorView) {
    super(view.message);
    this.channel = channel;
    this.view = view;
  }
}

function bridge(): DeskApi {
  const api = (globalThis as { api?: DeskApi }).api;
  if (api === undefined) {
    throw new DeskError('bridge', { kind: 'bridge', message: 'window.api is missing' });
  }
  return api;
}

/** Invokes a channel of the contract and returns its value, or throws DeskError. */
export async function call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  let result: IpcResult<ChannelOutput<C>>;
  try {
    result = await bridge().invoke(channel, input);
  } catch (cause) {
    if (cause instanceof DeskError) throw cause;
    // A broken bridge (preload refused the channel, process gone) is not an ErrorView.
    throw new DeskError(channel, { kind: 'bridge', message: cause instanceof Error ? cause.message : String(cause) });
  }
  if (!result.ok) throw new DeskError(channel, result.error);
  return result.value;
}

/** Subscribes to an event main pushes; returns the unsubscribe function. */
export function onEvent<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  try {
    return bridge().on(event, listener);
  } catch {
    return () => undefined;
  }
}

/** The ErrorView of anything a store caught, for the one wording function. */
export function errorViewOf(error: unknown): ErrorView {
  if (error instanceof DeskError) return error.view;
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}

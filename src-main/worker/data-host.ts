import { printable } from '../core/safe-text.ts';
import { resolveCall, type Implementation, type MethodMap } from '../core/data/methods.ts';
import { dataRequest, kindedError, livenessPing, packValue, type DataErrorValue, type DataReply } from '../core/data/protocol.ts';

/**
 * The worker's side of the data boundary: it answers each request by calling
 * the named method of one of the services it hosts, after parsing the
 * arguments with that method's schema in the shared method map. Only the
 * map's methods can be called (no prototype, no field); whatever a method
 * throws comes back as an error value: a DomainError with its kind and words,
 * and anything else as `internal` (its details go to `onUnexpected`, for the log).
 */

export interface DataHostOptions<M extends MethodMap<M>> {
  /** The method map both sides share. */
  readonly methods: M;
  /** The current services (they are replaced when a workspace is opened). */
  targets(): Implementation<M>;
  /** A failure that is a bug, with where it happened. */
  onUnexpected?(where: string, error: unknown): void;
}

export interface HostedReply {
  readonly reply: DataReply;
  /** Buffers to hand over with the reply instead of copying them. */
  readonly transfer: ArrayBuffer[];
}

export interface DataHost {
  handle(message: unknown): Promise<HostedReply>;
}

export function createDataHost<M extends MethodMap<M>>(options: DataHostOptions<M>): DataHost {
  return {
    async handle(message) {
      const parsed = dataRequest.safeParse(message);
      if (!parsed.success) {
        const id = typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'number' ? message.id : -1;
        return failed(id, { kind: 'internal', message: 'The data worker received a message it does not understand' });
      }
      const { id, target, method, args } = parsed.data;
      const where = `${printable(target, 40)}.${printable(method, 60)}`;
      const call = resolveCall(options.methods, options.targets(), target, method, args);
      if ('refused' in call) {
        if (call.refused === 'unknown') return failed(id, { kind: 'internal', message: `The data worker has no ${where}` });
        options.onUnexpected?.(where, new Error(`arguments that do not match ${where}: ${call.detail}`));
        return failed(id, { kind: 'internal', message: `The data worker was sent arguments that do not fit ${where}` });
      }
      try {
        const value: unknown = await call.run();
        const packed = packValue(value);
        return { reply: { id, ok: true, value: packed.value }, transfer: packed.transfer };
      } catch (error) {
        const view = kindedError(error);
        if (view) return failed(id, view);
        options.onUnexpected?.(where, error);
        return failed(id, { kind: 'internal', message: 'Something went wrong in the data worker; the details are in its log' });
      }
    },
  };
}

function failed(id: number, error: DataErrorValue): HostedReply {
  return { reply: { id, ok: false, error }, transfer: [] };
}

/** The part of a worker's parentPort the serving loop uses. */
export interface HostPort {
  postMessage(value: unknown, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
}

/**
 * Serves the boundary on a worker's port: a liveness ping is answered at
 * once (so main sees the thread turn), main's answers to the worker's asks
 * settle them, and every other message is a request for the host.
 */
export function serveDataHost(port: HostPort, host: DataHost, asker?: { settle(message: unknown): boolean }): void {
  port.on('message', (message) => {
    const ping = livenessPing.safeParse(message);
    if (ping.success) return port.postMessage({ pong: ping.data.ping });
    if (asker?.settle(message)) return;
    void host.handle(message).then(({ reply, transfer }) => port.postMessage(reply, transfer));
  });
}

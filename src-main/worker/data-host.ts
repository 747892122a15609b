import type { ChannelName, IpcResult } from '../../src-shared/contract.ts';
import { printable } from '../core/safe-text.ts';
import { resolveCall, type Implementation, type MethodMap } from '../core/data/methods.ts';
import { bridgeCallHead, CROSSING, kindedError, livenessPing, packValue, partOf, requestHead, type DataErrorValue, type DataReply } from '../core/data/protocol.ts';

/**
 * The worker's side of the data boundary: it answers each request by calling
 * the named method of one of the services it hosts, after parsing the
 * arguments with that method's schema in the shared method map. Only the
 * map's methods can be called (no prototype, no field); whatever a method
 * throws comes back as an error value: a DomainError with its kind and words,
 * and anything else as `internal` (its details go to `onUnexpected`, for the log).
 * A bridge call goes to `bridge` (the router), whose door parses its input.
 */

export interface DataHostOptions<M extends MethodMap<M>> {
  /** The method map both sides share. */
  readonly methods: M;
  /** The current services (they are replaced when a workspace is opened). */
  targets(): Implementation<M>;
  /**
   * Answers a call of the bridge: the router serving now, which parses the
   * renderer's input by the channel's schema (see core/data/bridge-calls.ts).
   */
  bridge?(channel: ChannelName, input: unknown): Promise<IpcResult<unknown>>;
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

const NOT_UNDERSTOOD: DataErrorValue = { kind: 'internal', message: 'The data worker received a message it does not understand' };

export function createDataHost<M extends MethodMap<M>>(options: DataHostOptions<M>): DataHost {
  /** Runs `work` and answers its value (large text handed over, not copied), or its failure as an error value. */
  async function answer(id: number, where: string, work: () => unknown): Promise<HostedReply> {
    try {
      const value: unknown = await work();
      const packed = packValue(value);
      return { reply: { id, ok: true, value: packed.value }, transfer: packed.transfer };
    } catch (error) {
      const view = kindedError(error);
      if (view) return failed(id, view);
      options.onUnexpected?.(where, error);
      return failed(id, { kind: 'internal', message: 'Something went wrong in the data worker; the details are in its log' });
    }
  }

  return {
    async handle(message) {
      const bridgeCall = bridgeCallHead.safeParse(message, CROSSING);
      if (bridgeCall.success && options.bridge) {
        const { id, channel } = bridgeCall.data;
        const bridge = options.bridge;
        return answer(id, channel, () => bridge(channel, partOf(message, 'input')));
      }
      const head = requestHead.safeParse(message, CROSSING);
      if (!head.success) {
        const id = typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'number' ? message.id : -1;
        return failed(id, NOT_UNDERSTOOD);
      }
      const { id, target, method } = head.data;
      const where = `${printable(target, 40)}.${printable(method, 60)}`;
      const call = resolveCall(options.methods, options.targets(), target, method, partOf(message, 'args'));
      if ('refused' in call) {
        if (call.refused === 'malformed') return failed(id, NOT_UNDERSTOOD);
        if (call.refused === 'unknown') return failed(id, { kind: 'internal', message: `The data worker has no ${where}` });
        options.onUnexpected?.(where, new Error(`arguments that do not match ${where}: ${call.detail}`));
        return failed(id, { kind: 'internal', message: `The data worker was sent arguments that do not fit ${where}` });
      }
      return answer(id, where, call.run);
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
    const ping = livenessPing.safeParse(message, CROSSING);
    if (ping.success) return port.postMessage({ pong: ping.data.ping });
    if (asker?.settle(message)) return;
    void host.handle(message).then(({ reply, transfer }) => port.postMessage(reply, transfer));
  });
}

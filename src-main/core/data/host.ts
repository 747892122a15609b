import { DomainError } from '../errors.ts';
import { printable } from '../safe-text.ts';
import { dataRequest, packValue, type DataErrorValue, type DataReply } from './protocol.ts';

/**
 * The worker's side of the data boundary: it answers each request by calling
 * the named method of one of the services it hosts. Only a target's own
 * methods can be called (no prototype, no field); whatever a method throws
 * comes back as an error value: a DomainError with its kind and words, and
 * anything else as `internal` (its details go to `onUnexpected`, for the log).
 */

/** The services a worker hosts, by name: each is an object of methods. */
export type DataTargets = Readonly<Record<string, object>>;

export interface DataHostOptions {
  /** The current services (they are replaced when a workspace is opened). */
  targets(): DataTargets;
  /** A failure that is a bug, with where it happened. */
  onUnexpected?(where: string, error: unknown): void;
}

export interface HostedReply {
  readonly reply: DataReply;
  /** Buffers to hand over with the reply instead of copying them. */
  readonly transfer: ArrayBuffer[];
}

export function createDataHost(options: DataHostOptions): { handle(message: unknown): Promise<HostedReply> } {
  return {
    async handle(message) {
      const parsed = dataRequest.safeParse(message);
      if (!parsed.success) {
        const id = typeof (message as { id?: unknown } | null)?.id === 'number' ? (message as { id: number }).id : -1;
        return failed(id, { kind: 'internal', message: 'The data worker received a message it does not understand' });
      }
      const { id, target, method, args } = parsed.data;
      const service = Object.hasOwn(options.targets(), target) ? options.targets()[target] : undefined;
      const fn = service !== undefined && Object.hasOwn(service, method) ? (service as Record<string, unknown>)[method] : undefined;
      if (typeof fn !== 'function') {
        return failed(id, { kind: 'internal', message: `The data worker has no ${printable(target, 40)}.${printable(method, 60)}` });
      }
      try {
        const value: unknown = await (fn as (...a: unknown[]) => unknown).apply(service, args);
        const packed = packValue(value);
        return { reply: { id, ok: true, value: packed.value }, transfer: packed.transfer };
      } catch (error) {
        if (error instanceof DomainError) return failed(id, { kind: error.kind, message: error.message.slice(0, 4_000) });
        const kind = (error as { kind?: unknown } | null)?.kind;
        // Errors of the shared kinds thrown by core code that is not DomainError (ApplyRefused, KeyError) keep their kind.
        if (typeof kind === 'string' && error instanceof Error && KINDED.has(kind)) {
          return failed(id, { kind: kind as DataErrorValue['kind'], message: error.message.slice(0, 4_000) });
        }
        options.onUnexpected?.(`${target}.${method}`, error);
        return failed(id, { kind: 'internal', message: 'Something went wrong in the data worker; the details are in its log' });
      }
    },
  };
}

/** Kinds that core code throws on purpose outside DomainError. */
const KINDED = new Set(['conflict', 'invalid', 'not_found', 'busy', 'keychain_unavailable']);

function failed(id: number, error: DataErrorValue): HostedReply {
  return { reply: { id, ok: false, error }, transfer: [] };
}

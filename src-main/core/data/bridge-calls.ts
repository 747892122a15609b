import { z } from 'zod';
import { events, type ChannelOutput, type DeskChannel, type Events, type IpcResult } from '../../../src-shared/contract.ts';
import { parseChannelOutputWarming } from '../../../src-shared/contract-parse.ts';
import { errorView } from '../../../src-shared/errors.ts';
import { readEvent, type EventListener } from './methods.ts';
import { CROSSING, CROSSING_PLAIN_FOR, partOf } from './protocol.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The bridge's calls and events as they cross between main and the data
 * worker, typed by the contract: the channel's name picks its input and
 * output schemas, the event's name its payload schema. Each is parsed once,
 * where it enters the thread that uses it:
 * - the channel, in main, which routes by it (`factsOf(c).answeredBy`): only
 *   the desk's channels cross;
 * - the input, in the worker, by the router at its door (`ipc/router.ts`: its
 *   outline, then the channel's input schema, a refusal answered as a value
 *   naming the field). Main forwards the renderer's input as it came: its
 *   thread spends nothing on it (a draft's 100,000 changes take a few hundred
 *   milliseconds to parse), and the router is the only parse;
 * - the reply, in main, by `readBridgeReply` with the channel's output schema
 *   (on the plain path for its first replies, compiled after: CROSSING_PLAIN_FOR);
 *   the router behind the boundary does not check it again;
 * - an event, in main, by `readBridgeEvent` (the contract's own map), on
 *   arrival; the router behind the boundary does not check it again.
 */

/**
 * A bridge call's deadline: the longest any channel may take. A call that
 * waits on the service ends inside the client's interactive deadline (30 s),
 * and the desk's own jobs in seconds.
 */
export const BRIDGE_DEADLINE_MS = 60_000;

/**
 * Reads an event the worker pushed as a bridge event, by the contract's map:
 * false when the contract names no such event or its payload does not fit.
 */
export function readBridgeEvent(name: string, payload: unknown, listener: EventListener<Events>): boolean {
  return readEvent(events, name, payload, listener);
}

/** A bridge reply's outline: a `value` for the channel's schema to read, or the router's refusal. */
const replyOutline = lazySchema(() => z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: errorView }),
]));

export type BridgeReply<C extends DeskChannel> =
  | { readonly result: IpcResult<ChannelOutput<C>> }
  /** What did not fit, for the log (the caller answers the router's `internal` refusal of an output). */
  | { readonly misfit: string };

/** Reads the worker's reply to a call of `channel`: the router's IpcResult, its value by the channel's output schema. */
export function readBridgeReply<C extends DeskChannel>(channel: C, reply: unknown): BridgeReply<C> {
  const outline = replyOutline.safeParse(reply, CROSSING);
  if (!outline.success) return { misfit: `the reply to ${channel} is not an answer of the bridge` };
  if (!outline.data.ok) return { result: { ok: false, error: outline.data.error } };
  const parsed = parseChannelOutputWarming(channel, partOf(reply, 'value'), CROSSING_PLAIN_FOR);
  if (parsed.success) return { result: { ok: true, value: parsed.data } };
  const [first] = parsed.error.issues;
  return { misfit: `output of ${channel} does not match the contract: ${first ? `${first.path.join('.')}: ${first.message}` : ''}` };
}

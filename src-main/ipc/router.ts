import type { z } from 'zod';
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  isChannelName,
  type ChannelName,
  type ChannelOutput,
  type ErrorView,
  type EventName,
  type EventPayload,
  type IpcResult,
  type ParsedInput,
} from '../../src-shared/contract.ts';
import { parseChannelInput, parseChannelOutput, parseEventPayload } from '../../src-shared/contract-parse.ts';
import type { FieldIssue } from '../../src-shared/errors.ts';
import type { Unsubscribe } from '../core/events.ts';
import { printable } from '../core/safe-text.ts';
import { boundedView, loggableFailure, toErrorView, zodIssuesToView } from './error-view.ts';
import { checkPayload } from './payload-guard.ts';

/**
 * One router for the bridge: a map from channel name to handler, every input
 * checked for its outline (plain data, bounded size) and then parsed by the
 * contract's schema before a handler sees it (the door: an input is parsed
 * here and nowhere else), outputs and event payloads parsed too when
 * `checkOutputs` is on (development and tests; behind the worker boundary
 * main parses them instead, as they arrive), and every failure returned as a
 * value of a few kB at most, whatever was sent. `desktop/ipc.ts` binds it to
 * ipcMain; the end-to-end tests bind the same router to a browser page.
 */
export interface Router {
  /** Every channel of the contract: those this router does not answer are refused, never unbound. */
  readonly channels: readonly ChannelName[];
  readonly events: readonly EventName[];
  /** Never throws: a bad channel, a bad payload or a failing handler is an error value. */
  invoke(channel: string, input: unknown): Promise<IpcResult<unknown>>;
  subscribe(listener: BridgeListener): Unsubscribe;
}

/** Told of every event the router pushes, each payload typed by its event's name. */
export type BridgeListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Answers one channel, with its input as the contract's schema parsed it. */
export type Handler<C extends ChannelName> = (input: ParsedInput<C>) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
export type Handlers = { [C in ChannelName]: Handler<C> };

/** Emits contract events; the router forwards them to whoever subscribed. */
export type EmitEvent = BridgeListener;

export interface RouterOptions {
  /** Parse outputs and event payloads as well (development and tests). */
  checkOutputs: boolean;
  /** Connects the services' events to the router's emitter; returns a disposer. */
  connectEvents?: (emit: EmitEvent) => Unsubscribe | void;
  /**
   * Where unexpected failures are reported (never with secrets; the key is
   * never in scope here). The error is a copy fit for a log: its message and
   * stack cut and cleaned of control characters (see `loggableFailure`).
   */
  onUnexpected?: (channel: string, error: Error) => void;
  /** Awaited once a call's input is parsed, before its handler runs (a refusal it throws is the call's answer). */
  beforeHandler?: (channel: ChannelName) => Promise<void> | void;
}

/**
 * A router that answers the channels of `handlers` (the desk's, main's own,
 * the recovery screen's: `C`); any other channel of the contract is an
 * `internal` failure, and a name outside it an `invalid` one.
 */
export function createRouter<C extends ChannelName>(handlers: Pick<Handlers, C>, options: RouterOptions): Router {
  const answers: Partial<Handlers> = handlers;
  const listeners = new Set<BridgeListener>();

  const emit: EmitEvent = (event, payload) => {
    if (!options.checkOutputs) {
      for (const listener of [...listeners]) listener(event, payload);
      return;
    }
    const parsed = parseEventPayload(event, payload);
    if (!parsed.success) {
      options.onUnexpected?.(event, loggableFailure(new Error(`event ${event} payload does not match the contract: ${describe(parsed.error.issues)}`)));
      return;
    }
    for (const listener of [...listeners]) listener(event, parsed.data);
  };
  options.connectEvents?.(emit);

  /** One call of a channel: its input parsed, then its handler, then (when checked) its output. */
  async function answer<K extends ChannelName>(channel: K, raw: unknown): Promise<IpcResult<unknown>> {
    const outline = checkPayload(raw);
    if (!outline.ok) return failure(refusal(channel, [outline.issue], 1, false));
    const parsed = parseInput(channel, raw, outline.values);
    if (!parsed.success) {
      const { shown, total } = zodIssuesToView(parsed.error.issues);
      return failure(refusal(channel, shown, total, outline.values > FULL_REPORT_VALUES));
    }
    try {
      const handler = handlerOf(answers, channel);
      if (!handler) return failure({ kind: 'internal', message: `${channel} is not answered here.` });
      await options.beforeHandler?.(channel);
      const value = await handler(parsed.data);
      if (!options.checkOutputs) return { ok: true, value };
      const out = parseChannelOutput(channel, value);
      if (!out.success) {
        options.onUnexpected?.(channel, loggableFailure(new Error(`output of ${channel} does not match the contract: ${describe(out.error.issues)}`)));
        return failure({ kind: 'internal', message: unreadableReply(channel) });
      }
      return { ok: true, value: out.data };
    } catch (error) {
      const view = toErrorView(error);
      if (view.kind === 'internal') options.onUnexpected?.(channel, loggableFailure(error));
      return failure(view);
    }
  }

  return {
    channels: CHANNEL_NAMES,
    events: EVENT_NAMES,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    invoke(channel, input) {
      if (typeof channel !== 'string' || !isChannelName(channel)) return Promise.resolve(unknownChannel(channel));
      return answer(channel, input ?? {});
    },
  };
}

/** The handler of `channel`, when the router answers it. */
function handlerOf<K extends ChannelName>(handlers: Partial<Handlers>, channel: K): Handler<K> | undefined {
  return Object.hasOwn(handlers, channel) ? handlers[channel] : undefined;
}

/** The refusal of a name the contract does not list. */
export function unknownChannel(channel: unknown): IpcResult<never> {
  return failure({ kind: 'invalid', message: `Unknown channel "${printable(String(channel), 80)}".` });
}

/** What the renderer is told of a reply that does not match its channel's output schema. */
export const unreadableReply = (channel: string) => `${channel} produced a reply the app could not read.`;

/** Inputs of up to this many values get every problem counted; larger ones stop at the first. */
const FULL_REPORT_VALUES = 10_000;

/**
 * zod's own early exit (what its `validate()` uses): a failing list or
 * object stops before its next element. A valid input parses exactly as
 * without it; an invalid one of 100,000 changes is refused in milliseconds
 * instead of building 400,000 issues for a second.
 */
const STOP_AT_FIRST_PROBLEM: z.core.ParseContextInternal<z.core.$ZodIssue> = { abortEarly: true };

function parseInput<K extends ChannelName>(channel: K, input: unknown, values: number) {
  const quick = parseChannelInput(channel, input, STOP_AT_FIRST_PROBLEM);
  if (quick.success || values > FULL_REPORT_VALUES) return quick;
  return parseChannelInput(channel, input);
}

/** An `invalid` refusal naming the first problems; `partial` when the input was too large to check to the end. */
function refusal(channel: string, issues: FieldIssue[], total: number, partial: boolean): ErrorView {
  const [first] = issues;
  const what = first ? `${first.field}: ${first.message}` : 'the request is not valid';
  const more = partial ? ' (and maybe more; checking stopped there)' : total > 1 ? ` (and ${total - 1} more)` : '';
  return {
    kind: 'invalid',
    message: `${channel}: ${printable(what, 300)}${more}`,
    issues,
    ...(total > issues.length ? { moreIssues: total - issues.length } : {}),
  };
}

function failure(error: ErrorView): IpcResult<never> {
  return { ok: false, error: boundedView(error) };
}

/** The first few problems of a failed parse, for a log line. */
function describe(issues: readonly z.core.$ZodIssue[]): string {
  const { shown, total } = zodIssuesToView(issues, 5);
  const text = shown.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  return total > shown.length ? `${text} (and ${total - shown.length} more)` : text;
}

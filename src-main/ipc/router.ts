import type { z } from 'zod';
import {
  channels,
  events,
  CHANNEL_NAMES,
  EVENT_NAMES,
  type ChannelName,
  type ChannelOutput,
  type ErrorView,
  type EventName,
  type EventPayload,
  type IpcResult,
} from '../../src-shared/contract.ts';
import type { FieldIssue } from '../../src-shared/errors.ts';
import type { Unsubscribe } from '../core/events.ts';
import { printable } from '../core/safe-text.ts';
import { boundedView, loggableFailure, toErrorView, zodIssuesToView } from './error-view.ts';
import { checkPayload } from './payload-guard.ts';

/**
 * One router for the bridge: a map from channel name to handler, every input
 * checked for its outline (plain data, bounded size) and then parsed by the
 * contract's schema before a handler sees it, outputs and event payloads
 * parsed too when `checkOutputs` is on (development and tests), and every
 * failure returned as a value of a few kB at most, whatever was sent.
 * `desktop/ipc.ts` binds it to ipcMain; the end-to-end tests bind the same
 * router to a browser page.
 */
export interface Router {
  readonly channels: readonly ChannelName[];
  readonly events: readonly EventName[];
  /** Never throws: a bad channel, a bad payload or a failing handler is an error value. */
  invoke(channel: string, input: unknown): Promise<IpcResult<unknown>>;
  subscribe(listener: (event: EventName, payload: unknown) => void): Unsubscribe;
}

export type Handlers = {
  [C in ChannelName]: (input: z.output<(typeof channels)[C]['input']>) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

/** Emits contract events; the router forwards them to whoever subscribed. */
export type EmitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

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
}

export function createRouter(handlers: Handlers, options: RouterOptions): Router {
  return routeTo(handlers, options);
}

/**
 * A router that answers some channels only (the main thread's own, while the
 * data worker answers the rest); any other channel is an `internal` failure.
 */
export function createPartialRouter(handlers: Partial<Handlers>, options: RouterOptions): Router {
  return routeTo(handlers, options);
}

function routeTo(handlers: Partial<Handlers>, options: RouterOptions): Router {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();

  const emit: EmitEvent = (event, payload) => {
    let checked: unknown = payload;
    if (options.checkOutputs) {
      const parsed = events[event].safeParse(payload);
      if (!parsed.success) {
        options.onUnexpected?.(event, loggableFailure(new Error(`event ${event} payload does not match the contract: ${describe(parsed.error.issues)}`)));
        return;
      }
      checked = parsed.data;
    }
    for (const listener of [...listeners]) listener(event, checked);
  };
  options.connectEvents?.(emit);

  return {
    channels: CHANNEL_NAMES,
    events: EVENT_NAMES,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async invoke(channel, input) {
      if (typeof channel !== 'string' || !isChannel(channel)) {
        return failure({ kind: 'invalid', message: `Unknown channel "${printable(String(channel), 80)}".` });
      }
      const spec = channels[channel];
      const raw = input ?? {};
      const outline = checkPayload(raw);
      if (!outline.ok) return failure(refusal(channel, [outline.issue], 1, false));
      const parsed = parseInput(spec.input, raw, outline.values);
      if (!parsed.success) {
        const { shown, total } = zodIssuesToView(parsed.error.issues);
        return failure(refusal(channel, shown, total, outline.values > FULL_REPORT_VALUES));
      }
      try {
        const handler = handlers[channel] as ((input: unknown) => unknown) | undefined;
        if (!handler) return failure({ kind: 'internal', message: `${channel} is not answered here.` });
        const value = await handler(parsed.data);
        if (!options.checkOutputs) return { ok: true, value };
        const out = spec.output.safeParse(value);
        if (!out.success) {
          options.onUnexpected?.(channel, loggableFailure(new Error(`output of ${channel} does not match the contract: ${describe(out.error.issues)}`)));
          return failure({ kind: 'internal', message: `${channel} produced a reply the app could not read.` });
        }
        return { ok: true, value: out.data };
      } catch (error) {
        const view = toErrorView(error);
        if (view.kind === 'internal') options.onUnexpected?.(channel, loggableFailure(error));
        return failure(view);
      }
    },
  };
}

/** Inputs of up to this many values get every problem counted; larger ones stop at the first. */
const FULL_REPORT_VALUES = 10_000;

/**
 * zod's own early exit (what its `validate()` uses): a failing list or
 * object stops before its next element. A valid input parses exactly as
 * without it; an invalid one of 100,000 changes is refused in milliseconds
 * instead of building 400,000 issues for a second.
 */
const STOP_AT_FIRST_PROBLEM: z.core.ParseContextInternal<z.core.$ZodIssue> = { abortEarly: true };

function parseInput(schema: z.ZodType, input: unknown, values: number) {
  const quick = schema.safeParse(input, STOP_AT_FIRST_PROBLEM);
  if (quick.success || values > FULL_REPORT_VALUES) return quick;
  return schema.safeParse(input);
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

function isChannel(name: string): name is ChannelName {
  return Object.hasOwn(channels, name);
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

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
import type { Unsubscribe } from '../core/events.ts';
import { toErrorView, zodIssuesToView } from './error-view.ts';

/**
 * One router for the bridge: a map from channel name to handler, every input
 * parsed by the contract's schema before a handler sees it, outputs and event
 * payloads parsed too when `checkOutputs` is on (development and tests), and
 * every failure returned as a value. `desktop/ipc.ts` binds it to ipcMain; the
 * end-to-end tests bind the same router to a browser page.
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
  /** Where unexpected failures are reported (never with secrets; the key is never in scope here). */
  onUnexpected?: (channel: string, error: unknown) => void;
}

export function createRouter(handlers: Handlers, options: RouterOptions): Router {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();

  const emit: EmitEvent = (event, payload) => {
    let checked: unknown = payload;
    if (options.checkOutputs) {
      const parsed = events[event].safeParse(payload);
      if (!parsed.success) {
        options.onUnexpected?.(event, new Error(`event ${event} payload does not match the contract: ${describe(parsed.error)}`));
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
      if (!isChannel(channel)) {
        return failure({ kind: 'invalid', message: `Unknown channel "${channel}".` });
      }
      const spec = channels[channel];
      const parsed = spec.input.safeParse(input ?? {});
      if (!parsed.success) {
        return failure({
          kind: 'invalid',
          message: `${channel}: ${describe(parsed.error)}`,
          issues: zodIssuesToView(parsed.error),
        });
      }
      try {
        const handler = handlers[channel] as (input: unknown) => unknown;
        const value = await handler(parsed.data);
        if (!options.checkOutputs) return { ok: true, value };
        const out = spec.output.safeParse(value);
        if (!out.success) {
          options.onUnexpected?.(channel, new Error(`output of ${channel} does not match the contract: ${describe(out.error)}`));
          return failure({ kind: 'internal', message: `${channel} produced a reply the app could not read.` });
        }
        return { ok: true, value: out.data };
      } catch (error) {
        const view = toErrorView(error);
        if (view.kind === 'internal') options.onUnexpected?.(channel, error);
        return failure(view);
      }
    },
  };
}

function isChannel(name: string): name is ChannelName {
  return Object.hasOwn(channels, name);
}

function failure(error: ErrorView): IpcResult<never> {
  return { ok: false, error };
}

function describe(error: z.ZodError): string {
  return zodIssuesToView(error)
    .map((i) => (i.field ? `${i.field}: ${i.message}` : i.message))
    .join('; ');
}

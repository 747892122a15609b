import { z } from 'zod';
import { safeParseWarming } from './plain-parse.ts';
import { channels, events, type ChannelName, type ChannelOutput, type EventName, type EventPayload, type ParsedInput } from './contract.ts';

/**
 * A channel's input or output parsed by its schema in the contract, typed
 * for the channel named, also where a type parameter names it (the router,
 * the worker boundary): looked up through a map whose values are known to be
 * schemas, so the compiler keeps each channel's own type; an event's payload
 * likewise.
 */

type SchemaPairs<M> = { readonly [K in keyof M]: { readonly input: z.ZodType; readonly output: z.ZodType } };

/** How to parse: zod's context, or a count of plain parses before the compiled path (safeParseWarming). */
type ParseHow = z.core.ParseContext<z.core.$ZodIssue> | { readonly plainFor: number };

function parseBy<M extends SchemaPairs<M>, K extends keyof M, S extends 'input' | 'output'>(
  map: M, key: K, side: S, value: unknown, how?: ParseHow,
): z.ZodSafeParseResult<z.output<M[K][S]>> {
  const schema: M[K][S] = map[key][side];
  return how !== undefined && 'plainFor' in how ? safeParseWarming(schema, value, how.plainFor) : z.safeParse(schema, value, how);
}

/** `input` parsed by the channel's input schema (`context`: zod's, e.g. to stop at the first problem). */
export function parseChannelInput<C extends ChannelName>(channel: C, input: unknown, context?: z.core.ParseContext<z.core.$ZodIssue>): z.ZodSafeParseResult<ParsedInput<C>> {
  return parseBy(channels, channel, 'input', input, context);
}

/** `value` parsed by the channel's output schema (`context`: zod's). */
export function parseChannelOutput<C extends ChannelName>(channel: C, value: unknown, context?: z.core.ParseContext<z.core.$ZodIssue>): z.ZodSafeParseResult<ChannelOutput<C>> {
  return parseBy(channels, channel, 'output', value, context);
}

/**
 * `value` parsed by the channel's output schema, on zod's plain path for the
 * channel's first `plainFor` values and compiled after (safeParseWarming).
 */
export function parseChannelOutputWarming<C extends ChannelName>(channel: C, value: unknown, plainFor: number): z.ZodSafeParseResult<ChannelOutput<C>> {
  return parseBy(channels, channel, 'output', value, { plainFor });
}

function parseIn<M extends { readonly [key: string]: z.ZodType }, K extends keyof M & string>(map: M, key: K, value: unknown): z.ZodSafeParseResult<z.output<M[K]>> {
  const schema: M[K] = map[key];
  return z.safeParse(schema, value);
}

/** `payload` parsed by the event's schema. */
export function parseEventPayload<E extends EventName>(event: E, payload: unknown): z.ZodSafeParseResult<EventPayload<E>> {
  return parseIn(events, event, payload);
}

import { z } from 'zod';
import { CROSSING } from './protocol.ts';

/**
 * The typed method map of a thread boundary: one object, shared by both
 * sides, that names every service a side hosts, each method's arguments and
 * result as zod schemas, and how long a caller waits for it. The hosting
 * side implements it (`Implementation`, checked by the compiler) and parses
 * the arguments it receives; the calling side gets typed calls (`ArgsOf`,
 * `ResultOf`) and parses the result it receives. So each side checks what
 * crosses into it, and nothing at the boundary is cast.
 */

/** Arguments cross as a tuple: `z.tuple([...])`. */
export type ArgsSchema = z.ZodType<readonly unknown[]>;

/** Every method of a boundary is one of these. */
export interface MethodSpec<A extends ArgsSchema = ArgsSchema, R extends z.ZodType = z.ZodType> {
  readonly args: A;
  readonly result: R;
  /** How long the caller waits for the answer; past it, the call ends in a `busy` error. */
  readonly deadlineMs: number;
}

/**
 * The services of one side, by name; each an object of methods. Used as the
 * constraint `M extends MethodMap<M>`, so a map's own keys are known.
 */
export type MethodMap<M> = { readonly [T in keyof M]: { readonly [K in keyof M[T]]: MethodSpec } };

/** Events one side pushes, by name: each a payload schema. */
export type EventMap = { readonly [event: string]: z.ZodType };

/**
 * A call waits this long unless its method says otherwise: far beyond any
 * answer the desk gives while it works normally, so only a store that stopped
 * answering or a job gone wrong reaches it.
 */
export const DEFAULT_DEADLINE_MS = 30_000;

/** A method: its arguments (`z.tuple([...])`), its result, and a deadline other than the default. */
export function method<A extends ArgsSchema, R extends z.ZodType>(args: A, result: R, options: { deadlineMs?: number } = {}): MethodSpec<A, R> {
  return { args, result, deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS };
}

export type Target<M> = keyof M & string;
export type MethodOf<M, T extends keyof M> = keyof M[T] & string;
/** A tuple type as a rest parameter takes it. */
type Rest<X> = X extends readonly unknown[] ? X : never;
/** What the caller passes. */
export type ArgsOf<M extends MethodMap<M>, T extends Target<M>, K extends MethodOf<M, T>> = Rest<z.input<M[T][K]['args']>>;
/** What the caller gets, once parsed. */
export type ResultOf<M extends MethodMap<M>, T extends Target<M>, K extends MethodOf<M, T>> = z.output<M[T][K]['result']>;

/** What the hosting side provides: every method of the map, taking its parsed arguments. */
export type Implementation<M extends MethodMap<M>> = {
  readonly [T in keyof M]: {
    readonly [K in keyof M[T]]: (...args: Rest<z.output<M[T][K]['args']>>) => z.input<M[T][K]['result']> | Promise<z.input<M[T][K]['result']>>;
  };
};

/** A typed call across the boundary. */
export type Call<M extends MethodMap<M>> = <T extends Target<M>, K extends MethodOf<M, T>>(
  target: T,
  method: K,
  ...args: ArgsOf<M, T, K>
) => Promise<ResultOf<M, T, K>>;

/** Handlers for each event of a map, taking its parsed payload. */
export type EventHandlers<E extends EventMap> = { readonly [N in keyof E]: (payload: z.output<E[N]>) => void };

/** One listener for every event of a map, each payload typed by its event's name. */
export type EventListener<E extends EventMap> = <N extends keyof E & string>(name: N, payload: z.output<E[N]>) => void;

/** Whether `name` is one of the map's own keys (not a prototype's). */
export function ownKey<O extends object>(object: O, name: string): name is keyof O & string {
  return Object.hasOwn(object, name);
}

/** The spec of `target.method`, or null when the map has none (a message built by mistake, or a stale build). */
function specOf<M extends MethodMap<M>>(methods: M, target: string, name: string): MethodSpec | null {
  if (!ownKey(methods, target)) return null;
  const service = methods[target];
  return ownKey(service, name) ? service[name] : null;
}

/** The most arguments a method takes: a guard against a call built by mistake, not a limit anyone meets. */
const MAX_ARGS = 8;

/** A call that came across, ready to run, or why it cannot be. */
export type ResolvedCall =
  | { readonly run: () => unknown }
  | { readonly refused: 'malformed' | 'unknown' | 'arguments'; readonly detail: string };

/**
 * Finds the method a message names in the map and in its implementation,
 * and parses the arguments (as they came: a list of at most MAX_ARGS
 * values) with the method's schema. Only the map's own methods can be
 * reached (no prototype, no field).
 */
export function resolveCall<M extends MethodMap<M>>(methods: M, implementation: Implementation<M>, target: string, name: string, args: unknown): ResolvedCall {
  if (!Array.isArray(args) || args.length > MAX_ARGS) return { refused: 'malformed', detail: '' };
  const spec = specOf(methods, target, name);
  const service = ownKey(implementation, target) ? implementation[target] : undefined;
  const fn = spec && service !== undefined && ownKey(service, name) ? service[name] : undefined;
  if (!spec || typeof fn !== 'function') return { refused: 'unknown', detail: '' };
  const parsed = spec.args.safeParse(args, CROSSING);
  if (!parsed.success) return { refused: 'arguments', detail: parsed.error.issues[0]?.message ?? '' };
  return { run: () => Reflect.apply(fn, service, parsed.data) };
}

/**
 * Hands an event to its handler after parsing its payload with the map's
 * schema. Returns false for an event the map does not name or a payload that
 * does not fit it (the caller logs it); nothing else reaches a handler.
 */
export function dispatchEvent<E extends EventMap>(events: E, handlers: EventHandlers<E>, name: string, payload: unknown): boolean {
  return readEvent(events, name, payload, (event, parsed) => handlers[event](parsed));
}

/** As `dispatchEvent`, to one listener for all the map's events. */
export function readEvent<E extends EventMap>(events: E, name: string, payload: unknown, listener: EventListener<E>): boolean {
  if (!ownKey(events, name)) return false;
  return deliver(events, name, payload, listener);
}

function deliver<E extends EventMap, N extends keyof E & string>(events: E, name: N, payload: unknown, listener: EventListener<E>): boolean {
  const schema: E[N] = events[name];
  const parsed = z.safeParse(schema, payload, CROSSING);
  if (!parsed.success) return false;
  listener(name, parsed.data);
  return true;
}

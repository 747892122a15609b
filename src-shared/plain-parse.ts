import type { z } from 'zod';

/**
 * zod's plain parser, not its compiled fast path. At an object schema's first
 * parse zod compiles a function for it (about a millisecond for a row or a
 * settings object), which pays off only over hundreds of parses; a schema
 * read once or a few times (a start reads many) is quicker on the plain path.
 */
export const PLAIN_PARSE: z.core.ParseContext<z.core.$ZodIssue> = { jitless: true };

const plainReads = new WeakMap<z.ZodType, number>();

/**
 * Parses on the plain path while `schema` has read fewer than `plainFor`
 * values, then on the compiled one: a schema read a few times (a start reads
 * many once) never pays the compile, and one read again and again (a table's
 * rows, a Listings page's reply) pays it once and reads faster after.
 */
export function safeParseWarming<T extends z.ZodType>(schema: T, value: unknown, plainFor: number): z.ZodSafeParseResult<z.output<T>> {
  const read = plainReads.get(schema) ?? 0;
  if (read >= plainFor) return schema.safeParse(value);
  plainReads.set(schema, read + 1);
  return schema.safeParse(value, PLAIN_PARSE);
}

/**
 * Compiles `schema`'s fast path now, on `value` (a quiet moment's work), and
 * has its later reads take it at once. `value` is one the schema reads as
 * valid, so that every part of it is compiled on the way.
 */
export function compileNow(schema: z.ZodType, value: unknown): void {
  schema.safeParse(value);
  plainReads.set(schema, Number.POSITIVE_INFINITY);
}

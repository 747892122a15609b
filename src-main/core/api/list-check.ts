import { z } from 'zod';
import type { Steps } from '../turn.ts';

/**
 * An answer checked against its endpoint's schema, at once or in parts. A
 * trade list may hold tens of thousands of trades, whose check holds the
 * event loop for hundreds of milliseconds in one step; a list is checked
 * the same way element by element, CHECK_PART elements a step, with the
 * same issues and the same data as the schema's own check gives.
 */

/** Elements of a list checked per step: a few milliseconds of zod. */
export const CHECK_PART = 500;

/** What a check found: the data the schema makes of the answer, or its issues. */
export type Checked =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly issues: readonly z.core.$ZodIssue[] };

/** The schema's own check, in one step. */
export function checkAtOnce(schema: z.ZodType, json: unknown): Checked {
  const result = schema.safeParse(json);
  return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues };
}

/**
 * The same check, yielding after every CHECK_PART elements when the schema
 * is a list (an array with no rule on the array itself, as the trade lists
 * are) and the answer is one; anything else is checked at once. An issue's
 * path starts at its element's index, as the schema's own does.
 */
export function* checkInParts(schema: z.ZodType, json: unknown): Steps<Checked> {
  const element = listElement(schema);
  if (element === null || !Array.isArray(json)) return checkAtOnce(schema, json);
  const data: unknown[] = [];
  const issues: z.core.$ZodIssue[] = [];
  for (let i = 0; i < json.length; i++) {
    if (i > 0 && i % CHECK_PART === 0) yield;
    const result = element.safeParse(json[i]);
    if (result.success) data.push(result.data);
    else for (const issue of result.error.issues) issues.push({ ...issue, path: [i, ...issue.path] });
  }
  return issues.length === 0 ? { success: true, data } : { success: false, issues };
}

/** The element schema of a list with no rule of its own (length, refinements), or null. */
function listElement(schema: z.ZodType): z.ZodType | null {
  // A schema built at its first use (lazySchema) is the list it builds.
  const list: unknown = schema instanceof z.ZodLazy ? schema._zod.innerType : schema;
  if (!(list instanceof z.ZodArray)) return null;
  return (list.def.checks ?? []).length === 0 ? (list.element as z.ZodType) : null;
}

import type { z } from 'zod';
import { ENDPOINTS } from './endpoints.ts';
import type { EndpointName, RequestOf } from './endpoints.ts';
import { ApiError } from './errors.ts';
import type { FieldIssue } from './errors.ts';

/**
 * zod issues turned into FieldIssues a trader can act on: which item (its
 * index in the caller's list) and which field, in one dotted path.
 */

/**
 * Maps zod issues to FieldIssues. `itemOffset` shifts `items.<i>` indices, so a
 * chunk of a longer list reports positions in the caller's whole list.
 */
export function toFieldIssues(issues: readonly z.core.$ZodIssue[], itemOffset = 0): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((part) => (typeof part === 'symbol' ? part.toString() : part));
    let item: number | undefined;
    if (path[0] === 'items' && typeof path[1] === 'number') {
      item = path[1] + itemOffset;
      path[1] = item;
    }
    if (issue.code === 'unrecognized_keys') {
      // One issue per unknown key, so each names its own field.
      for (const key of issue.keys) {
        out.push(issueAt([...path, key], 'is not a known field', item));
      }
    } else {
      out.push(issueAt(path, issue.message, item));
    }
  }
  return out;
}

function issueAt(path: readonly (string | number)[], message: string, item: number | undefined): FieldIssue {
  const field = path.length === 0 ? '(root)' : path.join('.');
  return item === undefined ? { field, message } : { item, field, message };
}

/** One line naming the first problem and how many more there are. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  const [first] = issues;
  if (first === undefined) return 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first.field}: ${first.message}${more}`;
}

/**
 * Checks a request input against its endpoint's schema. Throws ApiError
 * 'invalid' naming every bad field; nothing is sent for an invalid input.
 */
export function validateRequest<K extends EndpointName>(
  endpoint: K,
  input: unknown,
  itemOffset = 0,
): RequestOf<K> {
  const issues = requestIssues(endpoint, input, itemOffset);
  if (issues.length > 0) throw invalidRequest(endpoint, issues);
  return input as RequestOf<K>;
}

/** The problems of one request input, empty when it is valid. */
export function requestIssues(endpoint: EndpointName, input: unknown, itemOffset = 0): FieldIssue[] {
  const result = ENDPOINTS[endpoint].request.safeParse(input);
  return result.success ? [] : toFieldIssues(result.error.issues, itemOffset);
}

/** ApiError 'invalid' for `endpoint` with these issues. */
export function invalidRequest(endpoint: EndpointName, issues: readonly FieldIssue[]): ApiError {
  return new ApiError('invalid', `${endpoint}: ${describeIssues(issues)}`, { endpoint, issues });
}

import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { EndpointName } from '../core/api/endpoints.ts';
import { ENDPOINTS } from '../core/api/endpoints.ts';
import { Refusal } from './state/refusal.ts';

/**
 * Turning an HTTP request into an endpoint and a validated input: the route
 * table comes from ENDPOINTS, the validation from the shared zod schemas, so
 * the sandbox refuses exactly what the client's own checks would.
 */

export type RouteMatch =
  | { kind: 'endpoint'; endpoint: EndpointName }
  | { kind: 'wrong_method'; allowed: string[] }
  | { kind: 'unknown' };

const ROUTES = new Map<string, EndpointName>(
  (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => [`${ENDPOINTS[name].method} ${ENDPOINTS[name].path}`, name]),
);

export function matchRoute(method: string, path: string): RouteMatch {
  const endpoint = ROUTES.get(`${method} ${path}`);
  if (endpoint) return { kind: 'endpoint', endpoint };
  const allowed = (Object.keys(ENDPOINTS) as EndpointName[])
    .filter((name) => ENDPOINTS[name].path === path)
    .map((name) => ENDPOINTS[name].method);
  return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'unknown' };
}

/** Largest body accepted; 100 items with full notes are far below it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the whole body as text; refuses (413) one larger than MAX_BODY_BYTES. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal('body', `is larger than ${MAX_BODY_BYTES} bytes`, 413);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The raw (unvalidated) input of a request: the JSON body, or the query for GET endpoints. */
export function rawInput(endpoint: EndpointName, body: string, query: URLSearchParams): unknown {
  if (endpoint === 'set_user_agent') {
    const value = query.get('multiaccounts');
    return value === null || value === '' ? {} : { multiaccounts: value.split(',').map((s) => s.trim()) };
  }
  if (ENDPOINTS[endpoint].method === 'GET') return {};
  // The delete-all of buy orders documents no body: none is the same as `{}`.
  if (body.trim() === '') return endpoint === 'delete_all_buy_orders' ? {} : undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new Refusal('body', 'is not valid JSON');
  }
}

/** Elements of `items` in a raw input, for the request log. */
export function countItems(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  const items = (input as { items?: unknown }).items;
  return Array.isArray(items) ? items.length : 0;
}

/** Validates with the endpoint's request schema; refuses naming the first bad field. */
export function validate(endpoint: EndpointName, input: unknown): unknown {
  const schema: z.ZodType = ENDPOINTS[endpoint].request;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw new Refusal(path, `${issue?.message ?? 'is invalid'}${more}`);
}

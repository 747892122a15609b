import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, RATE_WINDOW_MS, type EndpointName } from '../api/endpoints.ts';

/**
 * How fast the rate limits let a set of requests go: the lower bound the
 * benchmark compares against, and the ETA a job shows.
 *
 * The rule, in one place: with a sliding 60-s window and a limit of L requests,
 * L requests can go at once and each slot can be used again 60 s after its last
 * use, so the k-th request (counting from 0) cannot be sent before
 * floor(k / L) × 60 s. n requests therefore span at least
 *
 *     (ceil(n / L) − 1) × 60 s
 *
 * from the first send to the last. Every endpoint has its own L
 * (ENDPOINTS[e].perMinute) and the global limit (80/min) bounds the total over
 * all endpoints the same way; the job can go no faster than the slowest of
 * these bounds. A fixed window can be gamed at its edges but no faster on
 * average, so this is the bound we aim at whatever the server's window style.
 */
export function estimateDurationMs(requestsPerEndpoint: Partial<Record<EndpointName, number>>): number {
  return finishOffsetMs(requestsPerEndpoint, () => [], GLOBAL_LIMIT_PER_MINUTE);
}

/**
 * The generalised rule behind both the bound and the ETA: `busy(scope)` gives,
 * for each slot already in use in that scope, how long from now until it is
 * free again (0 = free now). Request k of a scope goes at
 * slotFree[k mod L] + floor(k / L) × 60 s; the answer is when the last request
 * of the slowest scope goes.
 */
export function finishOffsetMs(
  requestsPerEndpoint: Partial<Record<EndpointName, number>>,
  busy: (scope: EndpointName | 'global') => readonly number[],
  globalLimit: number,
): number {
  let total = 0;
  let worst = 0;
  for (const [endpoint, count] of Object.entries(requestsPerEndpoint) as [EndpointName, number | undefined][]) {
    if (!count || count <= 0) continue;
    total += count;
    worst = Math.max(worst, lastSendOffset(count, ENDPOINTS[endpoint].perMinute, busy(endpoint)));
  }
  if (total === 0) return 0;
  return Math.max(worst, lastSendOffset(total, globalLimit, busy('global')));
}

/** When request n−1 can go, from now, with `limit` slots of which `busy` free up later. */
function lastSendOffset(n: number, limit: number, busy: readonly number[]): number {
  // More busy slots than the limit (the server said another program is using
  // the key) means the latest ones are the ones that count.
  const freeAt = [...busy].sort((a, b) => a - b).slice(-limit);
  while (freeAt.length < limit) freeAt.unshift(0);
  const last = n - 1;
  return (freeAt[last % limit] ?? 0) + Math.floor(last / limit) * RATE_WINDOW_MS;
}

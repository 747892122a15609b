import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/**
 * Counts this process's HTTP requests made through undici (the desk's
 * client, its price sources, its webhooks) that have not ended yet, from
 * undici's diagnostics channels. A test that moves its clock ahead at once
 * (support/warp-clock.ts) waits for none to be in flight: a request that
 * would arrive later than it was sent on the desk's clock would teach the
 * desk a wrong service clock and skew its rate plan.
 */
export function requestsInFlight(): { count(): number; stop(): void } {
  const open = new Set<object>();
  const created = (message: unknown) => void open.add((message as { request: object }).request);
  const ended = (message: unknown) => void open.delete((message as { request: object }).request);
  const channels = { 'undici:request:create': created, 'undici:request:trailers': ended, 'undici:request:error': ended } as const;
  for (const [name, listener] of Object.entries(channels)) subscribe(name, listener);
  return {
    count: () => open.size,
    stop() {
      for (const [name, listener] of Object.entries(channels)) unsubscribe(name, listener);
    },
  };
}

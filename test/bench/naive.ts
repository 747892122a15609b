import type { RequestOf } from '../../src-main/core/api/endpoints.ts';
import { isApiError } from '../../src-main/core/api/errors.ts';
import { estimateDurationMs } from '../../src-main/core/scheduler/estimate.ts';
import type { Live } from '../core/scheduler/support/live.ts';
import { packDraft, requestCounts, startPrepared, type Draft, type Scenario } from './scenarios.ts';

/** What the naive baseline measured in its slice, and the extrapolation (times in simulated ms). */
export interface NaiveFigures {
  items: number;
  sliceMs: number;
  itemsInSlice: number;
  requestsInSlice: number;
  count429: number;
  /** Slice time × items / items done in the slice: every write endpoint allows the same 5/min. */
  extrapolatedMs: number;
  lowerBoundMs: number;
  ratio: number;
  extrapolated: true;
}

/**
 * The baseline a plain script would be: one request at a time, one item per
 * request, in draft order, straight through the client, waiting out each 429
 * for its retry_after. The whole draft would take many simulated hours, so it
 * runs for a fixed simulated slice and the rest is extrapolated. Preparing
 * (seeding) is separate so it never runs while a measured run is on.
 */
export async function prepareNaive(scenario: Scenario, scale: number): Promise<(sliceMs: number) => Promise<NaiveFigures>> {
  const { live, drafts } = await startPrepared(scenario, scale);
  return (sliceMs) => runPrepared(live, drafts, sliceMs);
}

async function runPrepared(live: Live, drafts: readonly Draft[], sliceMs: number): Promise<NaiveFigures> {
  const { sandbox, client, clock } = live;
  try {
    sandbox.log.reset();
    const t0 = clock.monotonic();
    let done = 0;
    let requests = 0;
    for (const draft of drafts) {
      if (clock.monotonic() - t0 >= sliceMs) break;
      const input = { items: [draft.item] } as RequestOf<typeof draft.endpoint>;
      for (;;) {
        requests += 1;
        try {
          await client.call(draft.endpoint, input);
          done += 1;
          break;
        } catch (error) {
          if (!isApiError(error) || !error.transient) break;
          await clock.sleep(error.retryAfterMs ?? 1_000);
          if (clock.monotonic() - t0 >= sliceMs) break;
        }
      }
    }
    const elapsed = clock.monotonic() - t0;
    const extrapolatedMs = done === 0 ? Infinity : (elapsed * drafts.length) / done;
    const lowerBoundMs = estimateDurationMs(requestCounts(packDraft(drafts)));
    return {
      items: drafts.length,
      sliceMs: elapsed,
      itemsInSlice: done,
      requestsInSlice: requests,
      count429: sandbox.log.counters.count429,
      extrapolatedMs,
      lowerBoundMs,
      ratio: extrapolatedMs / lowerBoundMs,
      extrapolated: true,
    };
  } finally {
    await live.close();
  }
}

/**
 * One "start of the app" for the crash test: opens the profile, recovers the
 * apply journal (batches sent without an outcome become unknown outcomes),
 * resumes an unfinished apply or starts the draft's first one, and runs it to
 * the end, unless the parent kills it first. Run by crash.test.ts as
 * `node test/core/apply/apply-child.ts` (Node 24 strips the types).
 *
 * Env: DESK_DB, DESK_URL, DESK_KEY, DESK_DRAFT, DESK_CLOCK_ORIGIN, DESK_CLOCK_SCALE.
 */
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import { createApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import type { Scheduler } from '../../../src-main/core/scheduler/types.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { createTradeWatcher } from '../../../src-main/core/trades/trade-watcher.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const clock = scaledClock(Number(env('DESK_CLOCK_SCALE')), Number(env('DESK_CLOCK_ORIGIN')));
const key = env('DESK_KEY');
const draftId = env('DESK_DRAFT');
const store = openStore(env('DESK_DB'), { clock });
const repos = createRepos(store);
const hook: { scheduler?: Scheduler } = {};
const client = createMarketplaceClient({
  baseUrl: env('DESK_URL'),
  apiKey: async () => key,
  onRateLimit: (info) => hook.scheduler?.noteRateLimit(info),
  clock,
});
const scheduler = createScheduler({ client, clock });
hook.scheduler = scheduler;
const drafts = createDraftService({ store, repos });
// As the app does: the balance is read around buy order creates through the trade watcher's read.
const balance = createTradeWatcher({ scheduler, clock, seen: createMemorySeenTradesStore() });
const apply = createApplyService({ store, repos, drafts, scheduler, balance });

const { resumed, unknown } = apply.recover();
let handle = resumed.find((h) => h.draftId === draftId);
const started = !handle && repos.journal.runs({ draftId }).length === 0;
if (started) handle = apply.apply(draftId);
process.stdout.write(`${JSON.stringify({ event: 'start', resumed: resumed.length, started, unknownBatches: unknown.length })}\n`);
const final = handle ? await handle.done : null;
process.stdout.write(`${JSON.stringify({ event: 'end', final })}\n`);
drafts.dispose();
scheduler.close();
await client.close();
store.close();

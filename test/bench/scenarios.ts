import type { EndpointName, ItemizedEndpoint, ItemOf } from '../../src-main/core/api/endpoints.ts';
import { packTasks } from '../../src-main/core/scheduler/pack.ts';
import type { BatchTask } from '../../src-main/core/scheduler/types.ts';
import { startLive, type Live, type LiveOptions } from '../core/scheduler/support/live.ts';

/**
 * The benchmark's workloads, as a trader's draft would hold them: one item
 * per change, in the order they were drafted. Listings are seeded straight
 * into the sandbox (no rate budget spent); buy orders to edit and delete have
 * no seeding hook and are created over HTTP before the clock starts.
 */

export type Draft = { [E in ItemizedEndpoint]: { endpoint: E; item: ItemOf<E> } }[ItemizedEndpoint];

/** The desk's wall clock steps by `stepMs` this long (simulated ms) after the run starts. */
export interface WallStep {
  readonly afterMs: number;
  readonly stepMs: number;
}

export interface Scenario {
  readonly id: 'edits' | 'mixed' | 'clock-step';
  readonly title: string;
  /** Seeds the sandbox and returns the draft, in draft order. */
  prepare(live: Live): Promise<Draft[]>;
  /** Steps of the desk's wall clock during the run (NTP, a manual change); the service's clock does not step. */
  readonly wallSteps?: readonly WallStep[];
}

const HOUR = 3_600_000;

/** Packs a draft into ≤100-item batches per endpoint, keeping draft order within each. */
export function packDraft(drafts: readonly Draft[]): BatchTask[] {
  const byEndpoint = new Map<ItemizedEndpoint, unknown[]>();
  for (const d of drafts) byEndpoint.set(d.endpoint, [...(byEndpoint.get(d.endpoint) ?? []), d.item]);
  return [...byEndpoint].flatMap(([endpoint, items]) => packTasks(endpoint, items as ItemOf<typeof endpoint>[]));
}

export function requestCounts(tasks: readonly BatchTask[]): Partial<Record<EndpointName, number>> {
  const counts: Partial<Record<EndpointName, number>> = {};
  for (const t of tasks) counts[t.endpoint] = (counts[t.endpoint] ?? 0) + 1;
  return counts;
}

const skuOf = (n: number) => `${900_000 + n};6`;

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'edits',
    title: '(a) 10,000 listing price edits',
    async prepare({ sandbox }) {
      return sandbox.admin
        .seedListings(10_000)
        .map((l) => ({ endpoint: 'edit_listing', item: { listing_id: l.listing_id, price: l.price + 7, promoted: 0 } }));
    },
  },
  {
    id: 'mixed',
    title: '(b) 2,000 creates + 5,000 edits + 2,000 deletes of listings + 1,000 buy order writes',
    async prepare({ sandbox, scheduler }) {
      sandbox.admin.setBalance(1_000_000_000);
      const listed = sandbox.admin.seedListings(7_000);
      const free = sandbox.admin.inventory().slice(0, 2_000);
      // 600 standing buy orders for the draft to edit (300) and delete (300).
      const standing = Array.from({ length: 600 }, (_, n) => ({ sku: skuOf(n), price: 150, quantity: 2 }));
      const setup = await scheduler.startJob(packTasks('create_buy_order', standing), { lane: 'interactive' }).done;
      if (setup.itemsDone !== standing.length) throw new Error(`could not set up buy orders: ${JSON.stringify(setup)}`);
      return [
        ...free.map((a): Draft => ({ endpoint: 'create_listing', item: { asset_id: a.asset_id, price: 500, promoted: 0, game: a.game } })),
        ...listed.slice(0, 5_000).map((l): Draft => ({ endpoint: 'edit_listing', item: { listing_id: l.listing_id, price: l.price + 3, promoted: 0 } })),
        ...listed.slice(5_000).map((l): Draft => ({ endpoint: 'delete_listing', item: { asset_id: l.asset_id } })),
        ...Array.from({ length: 400 }, (_, n): Draft => ({ endpoint: 'create_buy_order', item: { sku: skuOf(1_000 + n), price: 120, quantity: 1 } })),
        ...standing.slice(0, 300).map((o): Draft => ({ endpoint: 'edit_buy_order', item: { sku: o.sku, price: 160, quantity: 2, active: 1 } })),
        ...standing.slice(300).map((o): Draft => ({ endpoint: 'delete_buy_order', item: { sku: o.sku } })),
      ];
    },
  },
  {
    id: 'clock-step',
    title: '(c) 5,000 listing price edits, the wall clock stepped 2 h back at 2 min, then 2 h forward at 4 and at 6 min',
    wallSteps: [
      { afterMs: 2 * 60_000, stepMs: -2 * HOUR },
      { afterMs: 4 * 60_000, stepMs: 2 * HOUR },
      { afterMs: 6 * 60_000, stepMs: 2 * HOUR },
    ],
    async prepare({ sandbox }) {
      return sandbox.admin
        .seedListings(5_000)
        .map((l) => ({ endpoint: 'edit_listing', item: { listing_id: l.listing_id, price: l.price + 5, promoted: 0 } }));
    },
  },
];

/** Starts a stack for `scenario` and seeds it; closes the stack if seeding fails. */
export async function startPrepared(
  scenario: Scenario,
  scale: number,
  options: LiveOptions = {},
): Promise<{ live: Live; drafts: Draft[] }> {
  const live = await startLive(scale, options);
  try {
    return { live, drafts: await scenario.prepare(live) };
  } catch (error) {
    await live.close();
    throw error;
  }
}

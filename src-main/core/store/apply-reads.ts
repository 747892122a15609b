import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { ChangeKind } from '../../../src-shared/drafts.ts';
import { parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * What an apply reads of its draft to plan the next batches: the changes of
 * a run that wait for a batch (queued, not planned yet), grouped by the phase
 * they go in and the request they join. Deletes go before the creates that
 * need them: a create of an asset or SKU the draft also deletes waits for
 * that delete (phase 2), delete-alls go first (phase 0), the rest between.
 */

/** 0: delete-alls, 1: edits, deletes and creates that wait for nothing, 2: creates after their own delete. */
export type WaitingPhase = 0 | 1 | 2;

const changeKind = z.enum([
  'listing.create', 'listing.edit', 'listing.delete', 'listing.deleteAll',
  'buyOrder.create', 'buyOrder.edit', 'buyOrder.delete', 'buyOrder.deleteAll',
] as const satisfies readonly ChangeKind[]);
const waitingPhase = lazySchema(() => z.union([z.literal(0), z.literal(1), z.literal(2)]));

/** A change of a run not planned into a batch yet. */
const IS_WAITING = "e.draft_id = :draft AND e.status = 'queued' AND e.batch_id IS NULL";
const CREATES = "('listing.create', 'buyOrder.create')";
const DELETE_ALLS = "('listing.deleteAll', 'buyOrder.deleteAll')";
/** A create waits for the draft's delete of the same asset or SKU. */
const AFTER_ITS_DELETE = `EXISTS (SELECT 1 FROM draft_entries d WHERE d.draft_id = e.draft_id
  AND d.slot = CASE e.slot WHEN 'L' THEN 'LD' ELSE 'BD' END AND d.key = e.key AND d.status != 'dropped')`;

/** The phase of each queued change without a batch, and the request group it goes in (its proxy: '' for the main account). */
const WAITING = `
  SELECT e.slot AS slot, e.key AS key, e.kind AS kind, e.seq AS seq,
    CASE WHEN e.kind IN ${CREATES} AND e.account != :main THEN e.account ELSE '' END AS proxy,
    CASE WHEN e.kind IN ${DELETE_ALLS} THEN 0 WHEN e.kind IN ${CREATES} AND ${AFTER_ITS_DELETE} THEN 2 ELSE 1 END AS phase
  FROM draft_entries e WHERE ${IS_WAITING}`;

/** Where a change sits in the draft's order: planning goes on after the last one planned. */
export const waitingPlace = lazySchema(() => z.object({ seq: z.number().int(), slot: z.string(), key: z.string() }));
export type WaitingPlace = z.output<typeof waitingPlace>;

/** One request group of waiting changes. */
export interface WaitingGroupKey {
  readonly phase: WaitingPhase;
  readonly kind: ChangeKind;
  readonly proxy: string;
}

/** The kinds and accounts of a run's waiting changes (one walk of the draft, no sort of every row); a delete-all has no account. */
export function waitingKinds(db: Pick<DatabaseSync, 'prepare'>, draftId: string): { kind: ChangeKind; account: string | null }[] {
  return parseRows('draft_entries', z.object({ kind: changeKind, account: z.string().nullable() }),
    db.prepare(`SELECT DISTINCT kind, account FROM draft_entries e WHERE ${IS_WAITING}`).all({ draft: draftId }));
}

/** The phases (1 or 2) of a run's waiting creates of one kind and account. */
export function waitingCreatePhases(db: Pick<DatabaseSync, 'prepare'>, draftId: string, kind: ChangeKind, account: string): WaitingPhase[] {
  return parseRows('draft_entries', z.object({ phase: waitingPhase }), db.prepare(`SELECT DISTINCT CASE WHEN ${AFTER_ITS_DELETE} THEN 2 ELSE 1 END AS phase
    FROM draft_entries e WHERE ${IS_WAITING} AND e.kind = :kind AND e.account = :account`).all({ draft: draftId, kind, account })).map((r) => r.phase);
}

/** The next `room` waiting changes of a group, in the draft's order, after `after` (from the start when null). */
export function waitingPlaces(
  db: Pick<DatabaseSync, 'prepare'>,
  run: { draftId: string; main: string },
  group: WaitingGroupKey,
  after: WaitingPlace | null,
  room: number,
): WaitingPlace[] {
  const from = after === null ? '' : 'AND (seq, slot, key) > (:a_seq, :a_slot, :a_key)';
  return parseRows('draft_entries', waitingPlace, db.prepare(`SELECT seq, slot, key FROM (${WAITING}) WHERE phase = :phase AND kind = :kind AND proxy = :proxy ${from}
    ORDER BY seq, slot, key LIMIT :room`)
    .all({
      draft: run.draftId, main: run.main, phase: group.phase, kind: group.kind, proxy: group.proxy, room,
      ...(after ? { a_seq: after.seq, a_slot: after.slot, a_key: after.key } : {}),
    }));
}

import { planBulk, type BulkDomain, type BulkOp, type BulkPlan } from './bulk-ops.ts';
import type { LedgerView } from './ledger-view.ts';
import { patchLayer } from './patch.ts';
import { patchEffect, type PatchEffect } from './patch-effect.ts';
import type { WorkingSet } from './working-set.ts';

/** A bulk plan with what its patch will do to the draft (null without a patch). */
export type PlanWithEffect = BulkPlan & { readonly effect: PatchEffect | null };

/**
 * Plans a bulk edit and works out its patch's effect with it (see
 * PatchEffect): the walk happens while the trader reads the preview, not
 * after they confirm it. The patch is planned for the draft's next sequence
 * number, the one it is stored with if nothing moves in between.
 */
export function plannedWithEffect(domain: BulkDomain, keys: readonly string[], op: BulkOp, ws: WorkingSet, ledger: LedgerView): PlanWithEffect {
  const plan = planBulk(domain, keys, op, ws, ledger);
  if (!plan.patch) return { ...plan, effect: null };
  const layer = patchLayer(ledger, ws.nextSeq, plan.patch, 0);
  return { ...plan, effect: patchEffect(layer, ws, ledger, ws.nextSeq) };
}

/**
 * The last bulk plan, kept for the edit that follows its preview: the trader
 * confirms what the preview showed, so when nothing moved in between (same
 * draft version, ledger version, rows and operation) the stored edit is that
 * plan, not a second computation of it.
 */
export function lastPlan(
  compute: (id: string | null, domain: BulkDomain, keys: readonly string[], op: BulkOp, ws: WorkingSet) => PlanWithEffect,
  stateOf: (id: string | null) => string,
) {
  let last: { state: string; domain: BulkDomain; op: string; keys: readonly string[]; plan: PlanWithEffect } | null = null;
  const sameKeys = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((k, i) => k === b[i]));
  return {
    plan(id: string | null, domain: BulkDomain, keys: readonly string[], op: BulkOp, ws: WorkingSet): PlanWithEffect {
      const state = stateOf(id);
      const opText = JSON.stringify(op);
      if (last && last.state === state && last.domain === domain && last.op === opText && sameKeys(last.keys, keys)) return last.plan;
      const plan = compute(id, domain, keys, op, ws);
      last = { state, domain, op: opText, keys, plan };
      return plan;
    },
  };
}

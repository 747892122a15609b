import { DEFAULT_GAME } from '../../../src-shared/fields.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import { readChangeInputs } from '../drafts/change-inputs.ts';
import { conflict, notFound } from '../errors.ts';
import type { Repos } from '../store/index.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { localMinute } from './undo-apply.ts';
import { planUndo, type Relist } from './undo-plan.ts';

/**
 * The listings an apply deleted, listed again: a new draft, made current,
 * with a create of each deleted listing's asset at the price, promotion and
 * note it had before the apply (the journal keeps them). A deleted listing
 * cannot come back; its asset can go up again as a new listing, which the
 * trader reviews and applies like any draft. An asset listed again since is
 * left out.
 */
export interface RelistResult {
  /** The new draft, now the current one; null when nothing could be listed again (no draft is kept). */
  readonly draftId: string | null;
  readonly name: string;
  readonly added: number;
  /** Creates today's field rules refused (a note stored before a rule tightened), with the first reasons. */
  readonly refused: number;
  readonly reasons: readonly string[];
}

/** Rows of the apply read per slice. */
const SLICE = 500;

export async function relistDeleted(
  deps: { readonly repos: Repos; readonly drafts: Pick<DraftService, 'create' | 'addChanges' | 'discard'>; readonly turn?: Turn }, runId: number,
): Promise<RelistResult> {
  const { repos, drafts } = deps;
  const turn = deps.turn ?? nextTurn;
  const run = repos.journal.run(runId);
  if (!run) throw notFound(`There is no apply ${runId}; it may have gone with its draft`);
  if (run.state === 'running') throw conflict('This apply is still running: list its deleted listings again once it has ended');
  const ledger = { listing: (id: string) => repos.listings.get(id), buyOrder: (sku: string) => repos.buyOrders.get(sku) };
  const relists: Relist[] = [];
  for (let page = repos.applied.page(runId, null, SLICE); page.length > 0;) {
    relists.push(...planUndo(page.filter((r) => r.slot === 'L'), ledger).relists);
    const last = page[page.length - 1];
    if (last === undefined || page.length < SLICE) break;
    await turn();
    page = repos.applied.page(runId, { slot: last.slot, key: last.key }, SLICE);
  }
  const name = `List again: deleted by apply ${localMinute(run.started_at)}`;
  if (relists.length === 0) return { draftId: null, name, added: 0, refused: 0, reasons: [] };
  const draftId = drafts.create(name).id;
  const read = readChangeInputs(relists.map((r) => ({
    kind: 'listing.create' as const, asset_id: r.assetId, account: r.account, price: r.price, promoted: r.promoted, game: DEFAULT_GAME,
    ...(r.sku === '' ? {} : { sku: r.sku }), ...(r.user_note === '' ? {} : { user_note: r.user_note }),
  })));
  const { added, errors } = drafts.addChanges(draftId, read.inputs);
  const refusals = read.refusals(errors);
  // A draft that lists nothing is no answer: it goes, and the reasons say why.
  if (added === 0) drafts.discard(draftId);
  return { draftId: added === 0 ? null : draftId, name, added, refused: refusals.length, reasons: refusals.slice(0, 5).map((e) => `${e.target}: ${e.message}`) };
}

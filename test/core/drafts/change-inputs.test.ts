import { afterEach, describe, expect, it } from 'vitest';
import { readChangeInputs } from '../../../src-main/core/drafts/change-inputs.ts';
import type { DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import type { InventoryDraftingDeps } from '../../../src-main/core/inventory/inventory-drafting.ts';
import { draftFixture, ledgerListing, type DraftFixture } from './fixtures.ts';

/**
 * Inputs are read with the shared schema once, where they come in; the
 * draft service takes them typed and parses nothing again. What code makes
 * from stored or outside data is read at its own door (`readChangeInputs`),
 * whose refusals and the draft's name the input's place in the list read.
 */

let f: DraftFixture | null = null;
afterEach(() => {
  f?.dispose();
  f = null;
});

/**
 * Checked by `npm run typecheck`, never run: each call passes a value no
 * schema has read, and the type checker must refuse it (an unused
 * `@ts-expect-error` fails the check).
 */
export function unparsedInputsAreRefused(drafts: DraftService, inventory: InventoryDraftingDeps['drafts'], raw: unknown, list: readonly unknown[]): void {
  // @ts-expect-error an unknown value is not a list of inputs
  drafts.addChanges('d', raw);
  // @ts-expect-error a list of unknowns is not a list of inputs: read them with the schema first
  drafts.addChanges('d', list);
  // @ts-expect-error the same for a check that stores nothing
  drafts.checkChanges('d', list);
  // @ts-expect-error a record of anything is not an input either
  drafts.addChanges('d', [{ kind: 'listing.delete', asset_id: 7 } as Record<string, unknown>]);
  // @ts-expect-error the inventory's drafting takes typed inputs too
  inventory.addChanges('d', list);
}

describe('inputs read at the door', () => {
  it('gives the draft what the schema accepts and names every refusal, the schema\'s and the draft\'s, by its place in the list read', () => {
    f = draftFixture();
    f.t.repos.listings.upsert(ledgerListing('10'));
    const { id } = f.drafts.create('d');
    const read = readChangeInputs([
      { kind: 'listing.edit', asset_id: '10', price: 0 },
      { kind: 'listing.create', asset_id: '20', price: 500, promoted: 0 },
      'not an input',
      { kind: 'listing.create', asset_id: '10', price: 5, promoted: 0 },
      { kind: 'buyOrder.create', sku: 'no-semicolon', price: 5, quantity: 1 },
      { kind: 'listing.delete', asset_id: '10' },
    ]);
    expect(read.inputs.map((i) => i.kind)).toEqual(['listing.create', 'listing.create', 'listing.delete']);
    const r = f.drafts.addChanges(id, read.inputs);
    expect(r.added).toBe(2);
    expect(read.refusals(r.errors).map((e) => [e.index, e.target, e.field])).toEqual([
      [0, '10', 'price'], [2, '', 'change'], [3, 'L:10', 'asset_id'], [4, 'no-semicolon', 'sku'],
    ]);
    // The schema's one default is the parse's: a listing's game.
    expect(f.drafts.entries(id).find((e) => e.target === 'L:20')?.change).toMatchObject({ game: '440' });
  });

  it('fills in the game of a listing an input built in code leaves out, as the schema\'s parse would', () => {
    f = draftFixture();
    const { id } = f.drafts.create('d');
    expect(f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '30', price: 500, promoted: 1 }]).errors).toEqual([]);
    expect(f.drafts.entries(id)[0]?.change).toMatchObject({ kind: 'listing.create', asset_id: '30', game: '440' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { readChangeInputs } from '../../../src-main/core/drafts/change-inputs.ts';
import { draftFixture, ledgerListing, LINKED, MAIN, type DraftFixture } from './fixtures.ts';

let f: DraftFixture;
afterEach(() => f.dispose());

const kinds = (f: DraftFixture, id: string) => f.drafts.entries(id).map((e) => [e.target, e.change.kind]);

describe('draft service', () => {
  it('stores every change at once: a restart without a clean close loses nothing', () => {
    f = draftFixture();
    f.t.repos.listings.upsert(ledgerListing('10'));
    const d = f.drafts.create('Weekend');
    const r = f.drafts.addChanges(d.id, [
      { kind: 'listing.create', asset_id: '20', price: 500, promoted: 1 },
      { kind: 'listing.edit', asset_id: '10', price: 900 },
      { kind: 'buyOrder.create', sku: '5021;6', price: 180, quantity: 3, account: LINKED },
      { kind: 'listing.deleteAll', active_only: true },
    ]);
    expect(r.errors).toEqual([]);
    f.restart();
    expect(f.drafts.list()).toMatchObject([{ id: d.id, name: 'Weekend', changeCount: 3 }]);
    // The delete-all replaced the edit of listing 10 (it is removed anyway); the create stays.
    expect(kinds(f, d.id)).toEqual([['L:20', 'listing.create'], ['B:5021;6', 'buyOrder.create'], ['LA', 'listing.deleteAll']]);
    expect(f.drafts.entries(d.id)[0]?.change).toEqual({ kind: 'listing.create', account: MAIN, asset_id: '20', price: 500, promoted: 1, game: '440' });
  });

  it('merges changes to one target: latest wins, edits fold into a create, a delete supersedes edits', () => {
    f = draftFixture();
    f.t.repos.listings.upsert(ledgerListing('10', { user_note: 'old' }));
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', listing_id: 'L10', price: 900 },
      { kind: 'listing.edit', asset_id: '10', promoted: 1, user_note: '' },
      { kind: 'listing.create', asset_id: '20', price: 500, promoted: 0 },
      { kind: 'listing.edit', asset_id: '20', price: 450, user_note: 'new' },
    ]);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'listing.edit', account: MAIN, asset_id: '10', listing_id: 'L10', price: 900, promoted: 1, user_note: '' },
      { kind: 'listing.create', account: MAIN, asset_id: '20', price: 450, promoted: 0, game: '440', user_note: 'new' },
    ]);
    f.drafts.addChanges(id, [{ kind: 'listing.delete', asset_id: '10' }, { kind: 'listing.delete', asset_id: '20' }]);
    // Deleting a listing created in the same draft cancels the create; the edit became a delete.
    expect(kinds(f, id)).toEqual([['LD:10', 'listing.delete']]);
  });

  it('lets an asset be listed again only after its delete, and removing the delete removes the relist', () => {
    f = draftFixture();
    f.t.repos.listings.upsert(ledgerListing('10'));
    const { id } = f.drafts.create('d');
    const refused = f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '10', price: 1, promoted: 0 }]);
    expect(refused.errors).toEqual([expect.objectContaining({ index: 0, target: 'L:10', field: 'asset_id', message: expect.stringContaining('already listed') })]);
    f.drafts.addChanges(id, [
      { kind: 'listing.delete', asset_id: '10' },
      { kind: 'listing.create', asset_id: '10', price: 1, promoted: 0, account: LINKED },
    ]);
    expect(kinds(f, id)).toEqual([['LD:10', 'listing.delete'], ['L:10', 'listing.create']]);
    f.drafts.removeChanges(id, ['LD:10']);
    expect(kinds(f, id)).toEqual([]);
  });

  it('refuses what the service would refuse, naming the row and field', () => {
    f = draftFixture();
    f.t.repos.listings.upsert(ledgerListing('11', { listing_id: null }));
    const { id } = f.drafts.create('d');
    // Inputs read at the door with the shared schema (as the router and the CSV reader read theirs), then merged.
    const read = readChangeInputs([
      { kind: 'listing.create', asset_id: '30', price: 0, promoted: 0 },
      { kind: 'listing.create', asset_id: '31', price: 5, promoted: 0, user_note: 'x'.repeat(181) },
      { kind: 'listing.edit', asset_id: '11', price: 5 },
      { kind: 'listing.edit', asset_id: '99', price: 5 },
      { kind: 'buyOrder.create', sku: 'no-semicolon', price: 5, quantity: 1 },
      { kind: 'buyOrder.create', sku: 'a;b', price: 5, quantity: 1, account: '42' },
      { kind: 'listing.create', asset_id: '32', price: 5, promoted: 0 },
    ]);
    const r = f.drafts.addChanges(id, read.inputs);
    const errors = read.refusals(r.errors);
    expect(r.added).toBe(1);
    expect(errors.map((e) => [e.index, e.field])).toEqual([
      [0, 'price'], [1, 'user_note'], [2, 'listing_id'], [3, 'asset_id'], [4, 'sku'], [5, 'account'],
    ]);
    expect(errors[0]?.target).toBe('30');
    expect(errors[0]?.message).toBe('must be more than 0 cents');
  });

  it('handles buy orders: edit of a create folds, pause/resume, a no-op edit disappears', () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsert({ sku: 'a;1', account: MAIN, price: 100, quantity: 2 });
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'buyOrder.create', sku: 'a;2', price: 50, quantity: 1 },
      { kind: 'buyOrder.edit', sku: 'a;2', quantity: 4 },
      { kind: 'buyOrder.edit', sku: 'a;1', active: 0 },
    ]);
    expect(f.drafts.entries(id).map((e) => e.change)).toEqual([
      { kind: 'buyOrder.create', account: MAIN, sku: 'a;2', price: 50, quantity: 4 },
      { kind: 'buyOrder.edit', account: MAIN, sku: 'a;1', price: 100, quantity: 2, active: 0 },
    ]);
    f.drafts.addChanges(id, [{ kind: 'buyOrder.edit', sku: 'a;1', active: 1 }]);
    expect(kinds(f, id)).toEqual([['B:a;2', 'buyOrder.create']]);
    const r = f.drafts.addChanges(id, [{ kind: 'buyOrder.edit', sku: 'a;2', active: 0 }]);
    expect(r.errors[0]?.field).toBe('active');
  });

  it('delete-all of buy orders replaces edits and deletes, keeps creates, and a later edit is refused', () => {
    f = draftFixture();
    f.t.repos.buyOrders.upsertMany([
      { sku: 'a;1', account: MAIN, price: 100, quantity: 2 },
      { sku: 'a;2', account: MAIN, price: 100, quantity: 2 },
    ]);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'buyOrder.edit', sku: 'a;1', price: 120 },
      { kind: 'buyOrder.delete', sku: 'a;2' },
      { kind: 'buyOrder.create', sku: 'b;1', price: 10, quantity: 1 },
      { kind: 'buyOrder.deleteAll' },
    ]);
    expect(kinds(f, id)).toEqual([['B:b;1', 'buyOrder.create'], ['BA', 'buyOrder.deleteAll']]);
    expect(f.drafts.addChanges(id, [{ kind: 'buyOrder.edit', sku: 'a;1', price: 1 }]).errors[0]?.message).toMatch(/delete-all/);
    // Re-creating a ledger SKU is allowed once the delete-all is in the draft.
    expect(f.drafts.addChanges(id, [{ kind: 'buyOrder.create', sku: 'a;1', price: 1, quantity: 1 }]).errors).toEqual([]);
    f.drafts.removeChanges(id, ['BA']);
    expect(kinds(f, id)).toEqual([['B:b;1', 'buyOrder.create']]);
  });

  it('takes the changes the service refused out of a draft, and only those', () => {
    f = draftFixture();
    f.t.repos.listings.upsertMany(['10', '11', '12'].map((a) => ledgerListing(a)));
    const d = f.drafts.create('Refused');
    f.drafts.addChanges(d.id, [
      { kind: 'listing.edit', asset_id: '10', price: 900 },
      { kind: 'listing.edit', asset_id: '11', price: 901 },
      { kind: 'listing.delete', asset_id: '12' },
      { kind: 'listing.create', asset_id: '20', price: 500, promoted: 0 },
    ]);
    f.t.repos.drafts.setStatus(d.id, ['L:11', 'LD:12'], 'failed', { kind: 'invalid', message: 'refused by the service' });
    expect(f.drafts.removeFailed(d.id)).toBe(2);
    expect(kinds(f, d.id)).toEqual([['L:10', 'listing.edit'], ['L:20', 'listing.create']]);
    expect(f.drafts.removeFailed(d.id)).toBe(0);
  });

  it('renames and discards drafts, and says each rename', () => {
    f = draftFixture();
    const { id } = f.drafts.create('a');
    const told: string[] = [];
    f.drafts.on('changed', ({ draftId }) => told.push(draftId));
    expect(f.drafts.rename(id, '  b  ').name).toBe('b');
    expect(told).toEqual([id]);
    expect(() => f.drafts.rename(id, ' ')).toThrow();
    f.drafts.discard(id);
    expect(f.drafts.list()).toEqual([]);
  });
});

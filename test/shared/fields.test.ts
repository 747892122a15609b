import { afterEach, describe, expect, it } from 'vitest';
import { validateRequest } from '../../src-main/core/api/validate.ts';
import { validate as sandboxValidate } from '../../src-main/sandbox/request-input.ts';
import { hiddenControlIn, sku, userNote } from '../../src-shared/fields.ts';
import { settingsSchema } from '../../src-shared/settings.ts';
import { draftFixture, ledgerListing, type DraftFixture } from '../core/drafts/fixtures.ts';
import { readChangeInputs } from '../../src-main/core/drafts/change-inputs.ts';

/**
 * Notes are shown to every buyer and SKUs name what is traded: text that
 * displays as something else (bidirectional controls reorder what follows)
 * or that C code cuts short (NUL) is refused with a reason that names it, by
 * every layer that shares the rules: drafts, the client and the simulator.
 */
const HIDDEN = [
  ['\u0000', 'a NUL character'],
  ['\u202e', 'a text direction control (U+202E)'],
  ['\u202a', 'a text direction control (U+202A)'],
  ['\u2066', 'a text direction control (U+2066)'],
  ['\u2069', 'a text direction control (U+2069)'],
  ['\u200f', 'a text direction control (U+200F)'],
  ['\u061c', 'a text direction control (U+061C)'],
] as const;

let f: DraftFixture | undefined;
afterEach(() => {
  f?.dispose();
  f = undefined;
});

describe('hidden control characters in notes and SKUs', () => {
  it.each(HIDDEN)('refuses %j in a note and in a SKU, naming it', (char, name) => {
    expect(hiddenControlIn(`fast ${char}trade`)).toBe(name);
    const note = userNote.safeParse(`fast ${char}trade`);
    expect(note.success).toBe(false);
    expect(note.error?.issues[0]?.message).toBe(`must not contain ${name}`);
    const s = sku.safeParse(`5021${char};6`);
    expect(s.success).toBe(false);
    expect(s.error?.issues.map((i) => i.message)).toContain(`must not contain ${name}`);
  });

  it('keeps text that only looks unusual: other scripts, emoji, line breaks', () => {
    for (const text of ['שלום עליכם', 'مرحبا', 'übergroß ✓ 🦊', 'line one\nline two', '=SUM(A1)']) {
      expect(hiddenControlIn(text)).toBeNull();
      expect(userNote.safeParse(text).success).toBe(true);
    }
    expect(sku.safeParse('Strange Killstreak Rocket Launcher;11').success).toBe(true);
  });

  it('is refused by the drafts, the client and the simulator alike', () => {
    f = draftFixture();
    const { id } = f.drafts.create('d');
    // Read at the door with the shared schema, as every input to a draft is.
    const read = readChangeInputs([
      { kind: 'listing.create', asset_id: '20', price: 500, promoted: 0, user_note: 'best \u202eprice' },
      { kind: 'buyOrder.create', sku: '5021;6\u0000', price: 180, quantity: 1 },
    ]);
    const added = f.drafts.addChanges(id, read.inputs);
    expect(added.added).toBe(0);
    expect(read.refusals(added.errors)).toEqual([
      expect.objectContaining({ index: 0, field: 'user_note', message: 'must not contain a text direction control (U+202E)' }),
      expect.objectContaining({ index: 1, field: 'sku', message: 'must not contain a NUL character' }),
    ]);

    const request = { items: [{ asset_id: '1', price: 100, promoted: 0 as const, game: '440', user_note: 'a\u2066b' }] };
    expect(() => validateRequest('create_listing', request)).toThrow(/items\.0\.user_note: must not contain a text direction control \(U\+2066\)/);
    expect(() => sandboxValidate('create_listing', request)).toThrow(/must not contain a text direction control/);
  });

  it('still reads what was stored before the rule, so nothing stored is lost', () => {
    f = draftFixture();
    const { id } = f.drafts.create('old');
    // Rows as an earlier version wrote them, straight into the database.
    f.t.repos.listings.upsert(ledgerListing('10', { user_note: 'old \u202enote', sku: '5021\u0000;6' }));
    f.t.repos.drafts.writeEntries(id, [{
      target: 'B:5021\u202e;6', seq: 1, status: 'pending', error: null, batchId: null, updatedAt: 1,
      change: { kind: 'buyOrder.create', account: '76561198000000001', sku: '5021\u202e;6', price: 100, quantity: 1, user_note: 'a\u0000b' },
    }]);
    f.restart();
    expect(f.t.repos.listings.get('10')?.user_note).toBe('old \u202enote');
    expect(f.drafts.entries(id).map((e) => e.change)).toMatchObject([{ sku: '5021\u202e;6', user_note: 'a\u0000b' }]);
    // And the trader can still remove the old buy order's change.
    expect(f.drafts.removeChanges(id, ['B:5021\u202e;6']).errors).toEqual([]);
  });
});

describe('the service URL setting', () => {
  it.each(['not:a-key', 'http://market.example', 'ftp://127.0.0.1', 'https://user:pw@market.example', 'https://market.example/?x=1', 'javascript:alert(1)'])(
    'refuses %s before it is stored, so the desk never reopens on an address it cannot use',
    (url) => {
      expect(settingsSchema.shape.serviceUrl.safeParse(url).success).toBe(false);
    },
  );

  it.each(['https://market.example', 'https://market.example/prefix/', 'http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:9000'])('accepts %s', (url) => {
    expect(settingsSchema.shape.serviceUrl.safeParse(url).success).toBe(true);
  });
});


describe('the SKU rule shared by client, drafts, CSV and simulator', () => {
  it('takes the documented two parts and the longer SKUs real items carry', () => {
    for (const ok of ['5021;6', '30911;5;u13', '15013;11;kt-3;w2;pk1', '205;11;australium;kt-3;festive', '5021;6;uncraftable']) {
      expect(sku.safeParse(ok).success, ok).toBe(true);
    }
  });

  it('refuses what is not a SKU, saying the shape', () => {
    for (const bad of ['5021', ';6', '5021;', '5021;;6', ' 5021;6', '5021;6 ', 'a'.repeat(199) + ';6']) {
      const r = sku.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/shape|too long/);
    }
  });
});

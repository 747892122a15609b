import { afterEach, describe, expect, it } from 'vitest';
import { createCsvExport } from '../../../src-main/core/csv/csv-export.ts';
import { createCsvService } from '../../../src-main/core/csv/csv-service.ts';
import type { DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';
import { csvFixture, csvOf, type CsvFixture } from './csv-support.ts';

/**
 * An import's slices each in a turn of their own: a part arrives in a
 * message, and a slice read in that message's turn, with the next one read
 * in the same loop's immediates, would hold the data worker for two slices.
 * An export's pages likewise, and its file joined and handed on in turns of
 * their own.
 */

let f: CsvFixture;
afterEach(() => f.dispose());

describe('CSV import turns', () => {
  it('reads no slice in the turn its part arrived in, at the preview and at the commit', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    const events: string[] = [];
    // The draft's check of a slice's inputs, at the preview and at the commit: where a slice is read.
    const drafts: DraftService = {
      ...f.drafts,
      checkInParts(draftId, staging) {
        const check = f.drafts.checkInParts(draftId, staging);
        return (inputs, base) => {
          events.push('slice');
          return check(inputs, base);
        };
      },
      addChanges(draftId, inputs) {
        events.push('slice');
        return f.drafts.addChanges(draftId, inputs);
      },
    };
    const csv = createCsvService({ store: f.t.store, repos: f.t.repos, drafts, turn: async () => void events.push('turn') });
    const rows = Array.from({ length: 3_000 }, (_, i) => `buyOrder.create,${100_000 + i};6,${100 + (i % 900)},1`);
    const upload = csv.startImport('draft', { draftId: id });
    let token = '';
    for (const part of textParts(csvOf('kind,sku,price_cents,quantity', ...rows), 20_000)) {
      events.push('part');
      token = (await csv.importPart(upload, part))?.token ?? token;
    }
    const previewed = events.filter((e) => e === 'slice').length;
    events.push('commit');
    expect(await csv.commitImport(token)).toMatchObject({ imported: 3_000, errorCount: 0 });

    expect(previewed).toBeGreaterThan(4);
    expect(events.filter((e) => e === 'slice').length).toBe(2 * previewed);
    const unturned = events.flatMap((e, i) => (e === 'slice' && events[i - 1] !== 'turn' ? [`${events[i - 1]} → slice at ${i}`] : []));
    expect(unturned).toEqual([]);
  });
});

describe('CSV export turns', () => {
  it('reads no page in the turn the export was asked in, one page a turn, and joins the file in a turn of its own', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.delete', asset_id: '77' },
      ...Array.from({ length: 1_200 }, (_, i) => ({ kind: 'buyOrder.create' as const, sku: `${100_000 + i};6`, price: 100, quantity: 1 })),
    ]);
    const events: string[] = [];
    const reads = <A extends unknown[], R>(read: (...args: A) => R) => (...args: A): R => {
      events.push('read');
      return read(...args);
    };
    const drafts = { ...f.t.repos.drafts, entriesOfSlot: reads(f.t.repos.drafts.entriesOfSlot), entriesPage: reads(f.t.repos.drafts.entriesPage) };
    const csv = createCsvExport({ repos: { ...f.t.repos, drafts }, names: null, turn: async () => void events.push('turn') });
    const text = await csv.exportDraft(id);

    expect(text.split('\r\n').filter((l) => l !== '')).toHaveLength(1 + f.drafts.entries(id).length);
    expect(f.drafts.entries(id).length).toBeGreaterThan(1_000);
    const unturned = events.flatMap((e, i) => (e === 'read' && events[i - 1] !== 'turn' ? [`${events[i - 1] ?? 'the ask'} → read at ${i}`] : []));
    expect(unturned).toEqual([]);
    // After the last read (the one that found no more): a turn to join the parts, and one to hand the file on.
    expect(events.slice(events.lastIndexOf('read'))).toEqual(['read', 'turn', 'turn']);
  });
});

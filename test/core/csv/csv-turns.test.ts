import { afterEach, describe, expect, it } from 'vitest';
import { createCsvService } from '../../../src-main/core/csv/csv-service.ts';
import type { DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';
import { csvFixture, csvOf, type CsvFixture } from './csv-support.ts';

/**
 * An import's slices each in a turn of their own: a part arrives in a
 * message, and a slice read in that message's turn, with the next one read
 * in the same loop's immediates, would hold the data worker for two slices.
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

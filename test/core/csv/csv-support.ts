import { expect } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { createCsvService, type CsvKind, type CsvService } from '../../../src-main/core/csv/csv-service.ts';
import type { ItemNames } from '../../../src-main/core/items/index.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';
import { csvPreview } from '../../../src-shared/draft-views.ts';
import { draftFixture, type DraftFixture } from '../drafts/fixtures.ts';

/** A draft fixture with a CSV service over the same store and draft service. */
export interface CsvFixture extends DraftFixture {
  csv: CsvService;
}

export function csvFixture(options: { clock?: Clock; maxPreviews?: number; names?: ItemNames } = {}): CsvFixture {
  const f = draftFixture();
  const csv = createCsvService({ store: f.t.store, repos: f.t.repos, drafts: f.drafts, ...options });
  return Object.assign(f, { csv });
}

/** Previews a file sent a part at a time (`size` characters each), as the bridge does, and checks the answer has the shape the bridge sends. */
export async function preview(f: CsvFixture, kind: CsvKind, text: string, draftId?: string, size?: number) {
  const upload = f.csv.startImport(kind, { draftId });
  let p = null;
  for (const part of textParts(text, size)) p = await f.csv.importPart(upload, part);
  if (p === null) throw new Error('the last part was answered without a preview');
  expect(csvPreview.parse(p)).toEqual(p);
  return p;
}

/** Lines of a CSV file joined with CRLF, as spreadsheets write them. */
export const csvOf = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** A clock tests move by hand. */
export function manualClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, monotonic: () => now, sleep: () => Promise.resolve(), advance: (ms) => void (now += ms) };
}

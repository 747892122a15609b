import { describe, expect, it } from 'vitest';
import type { Router } from '../../src-main/ipc/router.ts';
import type { ChannelInput, ChannelOutput } from '../../src-shared/contract.ts';
import { CSV_IMPORT_MAX_CHARS, CSV_PART_MAX_CHARS } from '../../src-shared/csv-parts.ts';
import { fileParts } from '../../src-renderer/src/lib/file-parts.ts';
import { routerDeskFixture } from '../support/live-desk.ts';
import { call, importCsvInParts } from '../support/router-call.ts';
import { until } from '../support/until.ts';

/**
 * CSV import over the bridge as the renderer does it: the file a part at a
 * time (drafts:importCsvPart), through the app's router over a live desk.
 * Where the parts are cut changes nothing in the preview or what the commit
 * imports; an upload another one replaced, or one never started, is refused
 * with a sentence; a file past the size limit is refused and let go.
 */

const open = routerDeskFixture('csv-import-');

const send = (router: Router) => (input: ChannelInput<'drafts:importCsvPart'>) => call(router, 'drafts:importCsvPart', input);

/** A draft file of buy-order creates with a quoted note over two lines, a refused row, CRLF line breaks and a byte-order mark. */
function draftFile(rows: number): string {
  const lines = ['kind,sku,price,quantity,user_note'];
  for (let i = 0; i < rows; i++) {
    lines.push(i === 3 ? `buyOrder.create,${100_000 + i};6,4.50,1,"a note ""quoted"",\r\non two lines"` : `buyOrder.create,${100_000 + i};6,${(1 + i / 100).toFixed(2)},1,`);
  }
  lines.push('buyOrder.create,5021;6,not a price,1,');
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const GONE = 'This CSV import is no longer under way (another one started, or it stopped at an error); check the file again';

describe('CSV import in parts through the router', () => {
  it('previews a file sent in parts as it does in one, answering the upload until the last part, and commits it', async () => {
    const { router } = await open({ scale: 1 });
    await call(router, 'drafts:create', { name: 'CSV' });
    const text = draftFile(400);

    const whole = await importCsvInParts(send(router), 'draft', text);
    const answers: unknown[] = [];
    const sending = async (input: ChannelInput<'drafts:importCsvPart'>) => {
      const answer = await call(router, 'drafts:importCsvPart', input);
      answers.push(answer);
      return answer;
    };
    // Parts of 97 characters: the quoted note, CR and LF pairs and rows all fall across parts' ends.
    const parted = await importCsvInParts(sending, 'draft', text, 97);

    expect(answers.length).toBe(Math.ceil(text.length / 97));
    const upload = (answers[0] as { upload: string }).upload;
    expect(answers.slice(0, -1)).toEqual(answers.slice(0, -1).map(() => ({ upload, preview: null })));
    const { token: _w, ...sameWhole } = whole;
    const { token, ...sameParted } = parted;
    expect(sameParted).toEqual(sameWhole);
    expect(parted).toMatchObject({ kind: 'draft', validCount: 400, errorCount: 1, errors: [{ line: 403, reason: expect.stringMatching(/^price/) }] });

    // The commit reads the file again, from what the preview kept: the same rows, the price it cannot read refused again.
    expect(await call(router, 'drafts:importCommit', { token })).toEqual({ imported: 400, refused: 1, changedSince: 0 });
    const draftId = (await call(router, 'drafts:list', {})).currentId ?? '';
    const page = await call(router, 'drafts:page', { draftId, show: 'all', offset: 0, limit: 10 });
    expect(page.total).toBe(400);
  });

  it('refuses a part of an upload a newer one replaced, or of none, and lets the newer one finish', async () => {
    const { router } = await open({ scale: 1 });
    const first = await call(router, 'drafts:importCsvPart', { kind: 'draft', seq: 1, text: 'kind,sku,price,quantity\r\nbuyOrder.create,5021;6,', last: false });
    const second = await call(router, 'drafts:importCsvPart', { kind: 'draft', seq: 1, text: 'kind,sku,price,quantity\r\n', last: false });
    expect(second.upload).not.toBe(first.upload);

    expect(await router.invoke('drafts:importCsvPart', { upload: first.upload, seq: 2, text: '4.50,1\r\n', last: true })).toEqual({
      ok: false, error: expect.objectContaining({ kind: 'not_found', message: GONE }),
    });
    expect(await router.invoke('drafts:importCsvPart', { upload: 'never-started', seq: 2, text: '', last: true })).toEqual({
      ok: false, error: expect.objectContaining({ kind: 'not_found', message: GONE }),
    });
    const done = await call(router, 'drafts:importCsvPart', { upload: second.upload, seq: 2, text: 'buyOrder.create,5021;6,4.50,1\r\n', last: true });
    expect(done.preview).toMatchObject({ validCount: 1, errorCount: 0 });
    // The upload ended with its preview: a part after the last is refused too.
    expect(await router.invoke('drafts:importCsvPart', { upload: second.upload, seq: 3, text: '', last: true })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('stops an upload a newer one replaced while it was being read, and keeps no table of either once they end', async () => {
    const { router, desk } = await open({ scale: 1 });
    const store = desk.workspace().store;
    const spools = () => (store.db.prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table' AND name GLOB 'csv_spool_*'").all()).length;
    // A job's scratch tables are a database attached for it, detached a turn after the job ends: wait for the count to settle.
    const scratches = () => (store.db.prepare('PRAGMA database_list').all() as { name: string }[]).filter((d) => d.name.startsWith('scratch_')).length;
    const settled = (count: number) => until(`${count} scratch databases`, () => scratches() === count);
    // A part of a few thousand rows is read over many turns: the second upload starts in one of them.
    const big = draftFile(5_000).slice(0, 900_000);
    const replaced = router.invoke('drafts:importCsvPart', { kind: 'draft', seq: 1, text: big, last: false });
    const second = await call(router, 'drafts:importCsvPart', { kind: 'draft', seq: 1, text: 'kind,sku,price,quantity\r\n', last: false });
    expect(await replaced).toEqual({ ok: false, error: expect.objectContaining({ kind: 'not_found', message: GONE }) });
    // The second upload's tables alone: the first's went when it was replaced.
    await settled(1);
    expect(spools()).toBe(1);
    const done = await call(router, 'drafts:importCsvPart', { upload: second.upload, seq: 2, text: 'buyOrder.create,5021;6,4.50,1\r\n', last: true });
    // The preview keeps the file's text for the commit; the commit lets it go.
    await settled(0);
    expect(spools()).toBe(1);
    await call(router, 'drafts:importCommit', { token: done.preview?.token ?? '' });
    expect(spools()).toBe(0);
    await settled(0);
  });

  it('refuses a part that is not the next, naming it, and keeps nothing of its file', async () => {
    const { router, desk } = await open({ scale: 1 });
    // Cut inside the prices: in this order the first row costs 12.50; parts 1, 3, 2 would read it at 1.00.
    const parts = ['sku,price,quantity\r\n5021;6,1', '2.50,1\r\n5022;6,1', '.00,1\r\n'];
    const { upload } = await call(router, 'drafts:importCsvPart', { kind: 'buyOrders', seq: 1, text: parts[0] ?? '', last: false });
    expect(await router.invoke('drafts:importCsvPart', { upload, seq: 3, text: parts[2] ?? '', last: true })).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'invalid',
        message: 'The CSV file arrived out of order: part 3 came where part 2 was expected (part 2 is missing or out of order), so nothing from it was kept; check the file again',
      }),
    });
    expect(await router.invoke('drafts:importCsvPart', { upload, seq: 2, text: parts[1] ?? '', last: false })).toMatchObject({ ok: false, error: { kind: 'not_found', message: GONE } });
    expect(desk.workspace().repos.buyOrders.count()).toBe(0);

    // A part sent twice, as a retry after a lost answer would: refused the same way.
    const again = await call(router, 'drafts:importCsvPart', { kind: 'buyOrders', seq: 1, text: parts[0] ?? '', last: false });
    await call(router, 'drafts:importCsvPart', { upload: again.upload, seq: 2, text: parts[1] ?? '', last: false });
    expect(await router.invoke('drafts:importCsvPart', { upload: again.upload, seq: 2, text: parts[1] ?? '', last: false })).toMatchObject({
      ok: false, error: { kind: 'invalid', message: expect.stringContaining('part 2 came again (part 3 was expected)') },
    });
    expect(desk.workspace().repos.buyOrders.count()).toBe(0);
  });

  it('refuses each line of a chosen file that is not UTF-8, at its line however the parts fall, and stores none of them', async () => {
    const { router, desk } = await open({ scale: 1 });
    // Notes saved as Latin-1 (E9 is "é" there, not UTF-8; the first starts a part of 7 bytes), amid notes that are UTF-8.
    const file = new Blob([
      'sku,price,quantity,user_note\r\n5021;6,4.50,1,übergroß ✓\r\n5022;6,4.50,1,caf', new Uint8Array([0xe9]),
      '\r\n5023;6,4.50,1,fine\r\n5024;6,4.50,1,', new Uint8Array([0xe9, 0xe9]), '\r\n',
    ]);
    const notUtf8 = expect.stringMatching(/^the line holds bytes that are not UTF-8 text/);
    for (const size of [7, 64, 1_000_000]) {
      let upload: string | null = null;
      let preview = null;
      // The renderer's own sender: its bytes decoded a part at a time.
      for await (const { seq, text, last } of fileParts(file, size)) {
        const answer: ChannelOutput<'drafts:importCsvPart'> = await call(router, 'drafts:importCsvPart', upload === null ? { kind: 'buyOrders', seq, text, last } : { upload, seq, text, last });
        upload = answer.upload;
        preview = answer.preview;
      }
      expect(preview).toMatchObject({ validCount: 2, errorCount: 2, errors: [{ line: 3, reason: notUtf8 }, { line: 5, reason: notUtf8 }] });
      expect(await call(router, 'drafts:importCommit', { token: preview?.token ?? '' })).toEqual({ imported: 2, refused: 2, changedSince: 0 });
    }
    expect(desk.workspace().repos.buyOrders.all().map((b) => [b.sku, b.user_note])).toEqual([['5021;6', 'übergroß ✓'], ['5023;6', 'fine']]);
  });

  it('reads a chosen file as European Excel saves it (byte order mark, semicolons, decimal commas, CRLF) however the parts fall', async () => {
    const { router, desk } = await open({ scale: 1 });
    const file = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), 'sku;price;quantity;user_note\r\n"5021;6";1,50;1;übergroß\r\n"5022;6";1.234,56;2;\r\n"5023;6";0,05;3;\r\n']);
    // A SKU holds a semicolon: Excel quotes it. Parts of 2 bytes cut the byte order mark itself.
    for (const size of [2, 64, 1_000_000]) {
      let upload: string | null = null;
      let preview = null;
      for await (const { seq, text, last } of fileParts(file, size)) {
        const answer: ChannelOutput<'drafts:importCsvPart'> = await call(router, 'drafts:importCsvPart', upload === null ? { kind: 'buyOrders', seq, text, last } : { upload, seq, text, last });
        upload = answer.upload;
        preview = answer.preview;
      }
      expect(preview, `parts of ${size}`).toMatchObject({
        validCount: 3, errorCount: 0, dialect: { separator: ';', separatorFrom: 'detected', decimal: ',', bom: true, lineEnd: 'CRLF' },
      });
      expect(await call(router, 'drafts:importCommit', { token: preview?.token ?? '' })).toMatchObject({ imported: 3, refused: 0 });
      expect(desk.workspace().repos.buyOrders.all().map((b) => [b.sku, b.price, b.quantity, b.user_note])).toEqual([
        ['5021;6', 150, 1, 'übergroß'], ['5022;6', 123_456, 2, ''], ['5023;6', 5, 3, ''],
      ]);
    }
  });

  it('answers a refusal with an excerpt of a 60,000-character line, not the line', async () => {
    const { router } = await open({ scale: 1 });
    const long = 'z'.repeat(60_000);
    const preview = await importCsvInParts(send(router), 'buyOrders', `sku,price,quantity\r\n${long},4.50,1\r\n${long},4.50,1\r\n`, 20_000);
    expect(preview.errors).toEqual([{ line: 2, reason: 'sku: must have the shape <part>;<part> (more ;parts allowed)' }, { line: 3, reason: `sku: ${'z'.repeat(80)}… (59920 more characters) is on line 2 already; sku: must have the shape <part>;<part> (more ;parts allowed)` }]);
  });

  it('refuses a file past the size limit with a sentence for the trader, and lets its upload go', async () => {
    const { router } = await open({ scale: 1 });
    // A header the import refuses: the parts after it are counted and kept, not read.
    const { upload } = await call(router, 'drafts:importCsvPart', { kind: 'listings', seq: 1, text: 'cost\n', last: false });
    const part = 'x'.repeat(1_000_000);
    let sent = 5;
    let seq = 2;
    let answer = await router.invoke('drafts:importCsvPart', { upload, seq, text: part, last: false });
    while (answer.ok) {
      sent += part.length;
      seq += 1;
      answer = await router.invoke('drafts:importCsvPart', { upload, seq, text: part, last: false });
    }
    expect(sent).toBeLessThanOrEqual(CSV_IMPORT_MAX_CHARS);
    expect(sent + part.length).toBeGreaterThan(CSV_IMPORT_MAX_CHARS);
    expect(answer).toEqual({
      ok: false,
      error: expect.objectContaining({ kind: 'invalid', message: 'The file is too large to import: a CSV file may hold up to 50,000,000 characters; split it into smaller files' }),
    });
    expect(await router.invoke('drafts:importCsvPart', { upload, seq: seq + 1, text: '', last: true })).toMatchObject({ ok: false, error: { kind: 'not_found', message: GONE } });
  }, 60_000);

  it('refuses a part longer than the contract allows, before any of it is read', async () => {
    const { router } = await open({ scale: 1 });
    const result = await router.invoke('drafts:importCsvPart', { kind: 'listings', seq: 1, text: 'x'.repeat(CSV_PART_MAX_CHARS + 1), last: true });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src-main/core/api/redact.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { openAppLog, type AppLog } from '../../../src-main/core/shell/app-log.ts';
import { logDeskEvents } from '../../../src-main/core/shell/desk-log.ts';
import { createDeskRouter } from '../../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { KEY_SPELLING_NAMES, KEY_SPELLINGS, type KeySpelling } from '../../../src-main/sandbox/key-echo.ts';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../src-shared/contract.ts';
import { keyTraces } from '../../support/key-traces.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';

/**
 * The whole desk against a simulator that hands the key back, in each of
 * its spellings: in an error of the trade load and of a refused create,
 * in a header, and inside the trades it answers (item names, status,
 * verification code). The desk runs as the app runs it, behind its router
 * (the renderer's side) with its log; the screen's reads, every event
 * pushed, the History CSV export, every log line, every table and every
 * byte of the profile's files are then searched for any trace of the key.
 * The trader is told once that the service echoed it.
 */

/** Fields of a trade bounded at 64 characters take only the spellings that fit. */
const WORD_MAX = 64;
const DAY = 86_400_000;

let sandbox: Sandbox;
let desk: Desk;
let router: Router;
let log: AppLog;
let dir: string;
const rendered: string[] = [];
const clock = scaledClock(600);

/** What the renderer asks, kept as it received it. */
async function ask<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await router.invoke(channel, input);
  rendered.push(JSON.stringify(result));
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as ChannelOutput<C>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'echoed-key-'));
  sandbox = await startSandbox({ clock, seed: 12, inventorySize: 100, tradeSchedule: false, pastDays: 0 });
  desk = await createDesk({
    dataDir: join(dir, 'data'), secrets: memoryKeychain(), version: 't', clock,
    initialSettings: { mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false }, inventoryUrl: sandbox.url,
  });
  // The log as the app writes it, but not told the key: what it holds came through the door.
  log = openAppLog({ dir: join(dir, 'logs'), level: 'debug' });
  logDeskEvents(desk.services, log);
  ({ router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true }));
  router.subscribe((event, payload) => rendered.push(JSON.stringify([event, payload])));
  await ask('key:set', { key: sandbox.apiKey });
  await until('the accounts', () => desk.workspace().accounts.snapshot().main !== null);
}, 30_000);

afterAll(async () => {
  await desk?.close();
  log?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const range = () => ({ from: clock.now() - 30 * DAY, to: clock.now() + 30 * DAY });
const key = () => sandbox.apiKey;

describe('a service that echoes the key, in every spelling', () => {
  it.each(KEY_SPELLING_NAMES.map((name, i) => [name, i] as const))('%s: taken out at the door, from errors and from the trades', async (spelling: KeySpelling, i) => {
    const spelled = KEY_SPELLINGS[spelling](key());
    const fields = spelled.length <= WORD_MAX ? (['name', 'status', 'verification_code'] as const) : (['name'] as const);
    const trade = sandbox.admin.addTrade({
      trade_type: 'market', status: 'Action Required', total: 300 + i,
      items: [{ name: `Item ${i}`, sku: '378;6', quantity: 1, price: 300 + i, quality: 'Unique', image_url: '', particle_url: '' }],
    });
    const echoed = () => sandbox.log.requests.filter((r) => r.faults.includes('echoKeyInTrades')).length;
    const before = echoed();
    // The next trade load is refused quoting the key; the ones after it answer with the key inside the trades.
    sandbox.faults.set({
      serverError: { endpoints: ['load_pending'], count: 1, status: 400 },
      echoKeyInError: { spelling, endpoints: ['load_pending', 'create_listing'], count: 2 },
      echoKeyInHeader: { spelling, endpoints: ['load_pending'] },
      echoKeyInTrades: { spelling, fields, endpoints: ['load_pending'] },
    });
    await ask('trades:checkNow', {});
    await until(`a load answered with the key in it (${spelling})`, () => echoed() > before, 15_000);
    const shown = await until('the trade shown, the key taken out of it', async () => {
      const view = await ask('trades:list', {});
      return view.trades.find((t) => t.trade_id === trade.trade_id && t.items[0]?.name.includes(REDACTED));
    }, 15_000);
    if (fields.length > 1) expect([shown.status, shown.verification_code]).toEqual([expect.stringContaining(REDACTED), expect.stringContaining(REDACTED)]);

    // A create the service refuses (the asset has left the inventory), quoting the key in its refusal.
    const asset = sandbox.admin.inventory()[i]?.asset_id ?? '';
    sandbox.admin.takeAsset(asset);
    const draft = await ask('drafts:create', { name: `echo ${spelling}` });
    await ask('drafts:addChanges', { changes: [{ kind: 'listing.create', asset_id: asset, price: 250, promoted: 0 }] });
    await ask('drafts:apply', { draftId: draft.id });
    await desk.workspace().apply.handles()[0]?.done;
    const failed = await ask('drafts:page', { draftId: draft.id, show: 'failed' });
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'create_listing').at(-1)?.faults).toEqual(['echoKeyInError']);
    expect(JSON.stringify(failed.rows)).toContain(REDACTED);

    await ask('apply:state', {});
    await ask('activity:list', {});
    await ask('history:page', { range: range(), show: 'all', limit: 500 });
    await ask('history:exportCsv', { range: range(), show: 'all' });
    expect(keyTraces(rendered.join('\n'), key()), spelling).toEqual([]);
  }, 60_000);

  it('told the trader once, naming the endpoint, in the activity log the screen shows', async () => {
    const notes = (await ask('activity:list', { limit: 5_000 })).filter((e) => e.message.includes('echoed the API key'));
    expect(notes.map((e) => [e.endpoint, e.message])).toEqual([
      ['load_pending', 'The service echoed the API key in an answer of load_pending; it was removed before anything was kept or shown'],
    ]);
    expect(rendered.some((r) => r.startsWith('["activity:added"') && r.includes('echoed the API key'))).toBe(true);
  });

  it('History and its CSV export hold the trades, without the key', async () => {
    const csv = await ask('history:exportCsv', { range: range(), show: 'all' });
    expect(csv.rows).toBeGreaterThanOrEqual(KEY_SPELLING_NAMES.length);
    expect(csv.csv).toContain(REDACTED);
    expect(keyTraces(csv.csv, key())).toEqual([]);
  });

  it('nothing the renderer received, no log line, no table and no byte of the profile holds the key', async () => {
    const ws = desk.workspace();
    const db = ws.store.db;
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    const rows = tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all())).join('\n');
    expect(rows).toContain(REDACTED);
    expect(keyTraces(rows, key())).toEqual([]);

    await desk.close();
    log.close();
    const lines = log.files().map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(lines).toMatch(/trade check failed.*\[key removed\]|\[key removed\].*trade check failed/);
    expect(keyTraces(lines, key())).toEqual([]);
    expect(keyTraces(rendered.join('\n'), key())).toEqual([]);

    const files = allFiles(join(dir, 'data'));
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file).toString('latin1');
      expect(keyTraces(bytes, key()), file).toEqual([]);
      // Read as SQLite too: what a tool opening the file would show.
      if (file.endsWith('.sqlite')) {
        const copy = new DatabaseSync(file, { readOnly: true });
        const names = (copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
        const text = names.map((t) => JSON.stringify(copy.prepare(`SELECT * FROM "${t}"`).all())).join('\n');
        copy.close();
        expect(keyTraces(text, key()), file).toEqual([]);
      }
    }
  }, 60_000);
});

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

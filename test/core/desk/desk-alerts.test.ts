import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tradeAlerts } from '../../../src-main/core/alerts/alert-watch.ts';
import type { HeartbeatState } from '../../../src-main/core/heartbeat/heartbeat.ts';
import type { WatchedTrade } from '../../../src-main/core/trades/trade-watcher.ts';
import type { AlertsView } from '../../../src-shared/alerts.ts';
import { call } from '../../support/router-call.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, verifyDeskSignature } from '../../support/webhook-receiver.ts';
import { closedPort } from '../../support/loopback-server.ts';
import { alertDeskFixture, type AlertDesk } from './alert-desk.ts';

/**
 * Alerts off the desktop, sent by the desk in live mode against the
 * simulator (its trades appear and move on its schedule) to receivers on
 * 127.0.0.1: one message per trade and status needing action (many at once
 * folded into one), the items named; a receiver's 429 honoured; receivers
 * that refuse connections or never answer tried again after growing pauses
 * and given up in the activity log, while the desk's pages answer and the
 * heartbeat beats when planned, never lapsing. No reply, event, log line or
 * file of the profile holds a webhook's token or signing secret.
 */

const open = alertDeskFixture();
const MIN = 60_000;
const DISCORD_PATH = '/api/webhooks/1187/Zq3xT0kenPart-9f8e7d6c5b4a39281706ab';
const SIGNED_PATH = '/relay/desk?key=relay-query-token-55aa77';
const SECRET = 'relay-secret-7f3a9c2e11b0';
const ALL = { trades: true, automation: true, apply: true };

/** What must never appear in a reply, an event or a log line. */
const SECRETS = ['Zq3xT0kenPart-9f8e7d6c5b4a39281706ab', 'relay-query-token-55aa77', SECRET];

function noSecretIn(lines: readonly string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const secret of SECRETS) expect(lines.filter((l) => l.includes(secret) || l.includes(encodeURIComponent(secret)))).toEqual([]);
}

/** Every file of the desk's profiles, as text (SQLite's pages and journal included). */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

async function addWebhooks(d: AlertDesk, hooks: Array<{ format: 'discord' | 'signed'; name: string; url: string }>): Promise<AlertsView> {
  let view: AlertsView | null = null;
  for (const h of hooks) view = await call(d.router, 'alerts:add', { ...h, ...(h.format === 'signed' ? { secret: SECRET } : {}), alerts: ALL });
  if (!view) throw new Error('no webhook added');
  return view;
}

/** Every batch of trades the watcher told as needing action, from now on. */
function needsActionBatches(d: AlertDesk): WatchedTrade[][] {
  const batches: WatchedTrade[][] = [];
  d.desk.workspace().trades.on('needsAction', (list) => batches.push([...list]));
  return batches;
}

describe('alerts sent from the desk to webhooks', () => {
  it('posts one message per trade and status needing action, the items named, many at once folded into one', async () => {
    const d = await open({ scale: 60, sandbox: { tradeSchedule: true }, held: true });
    const batches = needsActionBatches(d);
    const view = await addWebhooks(d, [
      { format: 'discord', name: 'Trades channel', url: `${d.receiver.origin}${DISCORD_PATH}` },
      { format: 'signed', name: 'Phone relay', url: `${d.receiver.origin}${SIGNED_PATH}` },
    ]);
    d.startServices();
    expect(view.webhooks.map((w) => ({ host: w.host, last4: w.last4 }))).toEqual([
      { host: new URL(d.receiver.origin).host, last4: '06ab' },
      { host: new URL(d.receiver.origin).host, last4: 'aa77' },
    ]);
    // The schedule's trades: those pending at the start, then new ones as they come (a trade check a minute).
    await until('three trades told one at a time', () => batches.filter((b) => b.length <= 3).flat().length >= 3, 40_000);
    // What was told so far; each webhook's messages come in the order they were raised, more may follow.
    const expected = batches.flatMap((b) => tradeAlerts(b));
    expect(expected.length).toBeGreaterThanOrEqual(3);
    await until('each receiver told', () => d.receiver.to(DISCORD_PATH).length >= expected.length && d.receiver.to(SIGNED_PATH).length >= expected.length);
    await d.desk.close();

    const discord = d.receiver.to(DISCORD_PATH).slice(0, expected.length).map((r) => JSON.parse(r.body) as { embeds: Array<{ title: string; description: string }>; allowed_mentions: unknown });
    const signed = d.receiver.to(SIGNED_PATH).slice(0, expected.length);
    // No message for anything but these (one a trade and status, or one for a burst), whatever came after.
    const later = batches.flatMap((b) => tradeAlerts(b)).length;
    expect(d.receiver.to(DISCORD_PATH).length).toBeLessThanOrEqual(later);
    for (const [i, alert] of expected.entries()) {
      if (alert.type !== 'trade.needs_action') throw new Error('not a trade alert');
      const message = discord[i];
      expect(message?.allowed_mentions).toEqual({ parse: [] });
      expect(message?.embeds[0]?.title).toBe(alert.trades.length === 1 ? alert.trades[0]?.action : `${alert.trades.length} trades need action`);
      // Each item named (Discord's Markdown escaped: names hold dashes, dots and colons).
      const plain = message?.embeds[0]?.description.replace(/\\(.)/g, '$1') ?? '';
      for (const trade of alert.trades.slice(0, alert.trades.length === 1 ? 1 : 5)) expect(plain).toContain(trade.items[0]?.name.slice(0, 40));
      const body = signed[i];
      expect(verifyDeskSignature({ secret: SECRET, headers: body?.headers ?? {}, body: body?.body ?? '', nowSec: Math.floor(d.clock.now() / 1000), toleranceSec: 24 * 3600 })).toBe('ok');
      const data = (JSON.parse(body?.body ?? '{}') as { data: { trades: Array<{ tradeId: string; items: Array<{ name: string }>; partnerAccountAgeDays: number }> } }).data;
      expect(data.trades.map((t) => t.tradeId)).toEqual(alert.trades.map((t) => t.tradeId));
      expect(data.trades.map((t) => t.items.map((x) => x.name))).toEqual(alert.trades.map((t) => t.items.map((x) => x.name)));
      expect(data.trades.map((t) => t.partnerAccountAgeDays)).toEqual(alert.trades.map((t) => t.partnerAgeDays));
    }
    // Never twice for the same trade and status.
    const told = expected.flatMap((a) => (a.type === 'trade.needs_action' ? a.trades.map((t) => `${t.tradeType}:${t.tradeId}:${t.status}`) : []));
    expect(new Set(told).size).toBe(told.length);
    noSecretIn(d.transcript());
  }, 60_000);

  it('honours a receiver’s 429: nothing is posted to it before its retry_after is over', async () => {
    const d = await open({ scale: 30 });
    await addWebhooks(d, [{ format: 'discord', name: 'Trades channel', url: `${d.receiver.origin}${DISCORD_PATH}` }]);
    d.receiver.answer({ status: 429, body: { message: 'You are being rate limited.', retry_after: 4.5, global: false } });
    for (const id of ['501', '502']) d.sandbox.admin.addTrade({ trade_type: 'market', trade_id: id, role: 'seller' });
    await call(d.router, 'trades:checkNow', {});
    await until('both delivered', () => d.receiver.requests.length >= 3, 20_000);
    const [limited, ...after] = d.receiver.requests;
    for (const r of after) expect(r.at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(4_500);
    const names = d.sandbox.admin.trades().filter((t) => ['501', '502'].includes(t.trade_id)).map((t) => t.items[0]?.name ?? '');
    const descriptions = d.receiver.requests.map((r) => (JSON.parse(r.body) as { embeds: Array<{ description: string }> }).embeds[0]?.description.replace(/\\(.)/g, '$1'));
    for (const name of names) expect(descriptions.slice(1).some((text) => text?.includes(name.slice(0, 40)))).toBe(true);
    noSecretIn(d.transcript());
  }, 40_000);

  it('tries a receiver that refuses connections and one that never answers again after growing pauses, gives each up in the activity log, and the desk goes on meanwhile', async () => {
    const d = await open({ scale: 60, sending: { timeoutMs: 10_000, backoffMs: 20_000, maxTries: 4 } });
    const hanging = await startWebhookReceiver(d.clock);
    hanging.otherwise('hang');
    const refused = `http://127.0.0.1:${await closedPort()}${DISCORD_PATH}`;
    await addWebhooks(d, [
      { format: 'discord', name: 'Dead', url: refused },
      { format: 'signed', name: 'Hanging', url: `${hanging.origin}${SIGNED_PATH}` },
      { format: 'discord', name: 'Healthy', url: `${d.receiver.origin}${DISCORD_PATH}` },
    ]);
    const heartbeat = d.desk.workspace().heartbeat;
    await until('the heartbeat holds', () => heartbeat.state.status === 'active');
    // The service's record of the automated mark, sampled as the test runs.
    let lapses = 0;
    let marked = false;
    const sample = setInterval(() => {
      const now = d.sandbox.admin.userAgent().automated;
      if (marked && !now) lapses += 1;
      marked = now;
    }, 5);
    const statuses: string[] = [];
    heartbeat.on('state', (s) => statuses.push(s.status));

    d.sandbox.admin.addTrade({ trade_type: 'market', trade_id: '601', role: 'seller' });
    await call(d.router, 'trades:checkNow', {});
    await until('the healthy receiver told', () => d.receiver.requests.length >= 1);
    // Pages answer all along: a dead or hanging receiver holds nothing of the desk.
    let pages = 0;
    let slowest = 0;
    while (!d.transcript().some((l) => l.includes('alert not delivered') && l.includes('Hanging')) || !d.transcript().some((l) => l.includes('alert not delivered') && l.includes('Dead'))) {
      const started = performance.now();
      await call(d.router, 'ledger:page', { domain: 'listings', limit: 100 });
      slowest = Math.max(slowest, performance.now() - started);
      pages += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (pages > 2_000) throw new Error('the alerts were never given up');
    }
    // Past a heartbeat or two more (5 min each) after the tries.
    await d.clock.sleep(12 * MIN);
    clearInterval(sample);
    console.log(`alerts with dead receivers: ${pages} ledger pages answered meanwhile, the slowest in ${slowest.toFixed(1)} ms`);

    expect(lapses).toBe(0);
    expect(statuses).not.toContain('lapsed');
    // The hanging receiver saw each try begin after the last one's deadline and a growing pause: 20 s, 40 s, 80 s.
    const at = hanging.to(SIGNED_PATH).map((r) => r.at);
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    expect(gaps.map((g, i) => g >= 9_000 + 20_000 * 2 ** i * 0.75)).toEqual([true, true, true]);
    // The refused one was tried as often, its pauses said in the log.
    const retries = d.transcript().filter((l) => l.includes('alert to be tried again') && l.includes('Dead')).map((l) => JSON.parse(l) as { waitMs: number; why: string });
    expect(retries).toHaveLength(3);
    expect(retries.every((r) => r.why === 'nothing answers at that address (ECONNREFUSED)')).toBe(true);
    expect(retries[2]?.waitMs).toBeGreaterThan(retries[0]?.waitMs ?? Infinity);
    // Given up, and said where the trader looks: the activity log.
    const activity = await call(d.router, 'activity:list', { text: 'alert' });
    expect(activity.filter((e) => e.endpoint === 'alert' && e.outcome === 'failed').map((e) => e.message)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/…06ab · Accept a trade: you sold an item: not delivered after 4 tries: nothing answers at that address \(ECONNREFUSED\)$/),
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/…aa77 · Accept a trade: you sold an item: not delivered after 4 tries: no answer within 10 s$/),
    ]));
    // Nothing left waiting, as Settings shows it; each says why its last alert was not delivered.
    const shown = await call(d.router, 'alerts:list', {});
    expect(shown.webhooks.map((w) => [w.name, w.queued, w.last?.ok])).toEqual([['Dead', 0, false], ['Hanging', 0, false], ['Healthy', 0, true]]);
    await hanging.close();
    noSecretIn(d.transcript());
    noSecretIn(filesOf(d.dataDir));
  }, 90_000);

  it('answers pages and beats when planned all the while one receiver holds its alert’s connection open and another refuses every try', async () => {
    const d = await open({ scale: 60, sending: { timeoutMs: 60 * MIN, backoffMs: MIN, maxTries: 8 } });
    const hanging = await startWebhookReceiver(d.clock);
    hanging.otherwise('hang');
    await addWebhooks(d, [
      { format: 'discord', name: 'Dead', url: `http://127.0.0.1:${await closedPort()}${DISCORD_PATH}` },
      { format: 'signed', name: 'Hanging', url: `${hanging.origin}${SIGNED_PATH}` },
    ]);
    const heartbeat = d.desk.workspace().heartbeat;
    await until('the heartbeat holds', () => heartbeat.state.status === 'active' && heartbeat.state.nextBeatAt !== null);
    const states: HeartbeatState[] = [heartbeat.state];
    heartbeat.on('state', (s) => states.push(s));
    d.sandbox.admin.addTrade({ trade_type: 'market', trade_id: '701', role: 'seller' });
    await call(d.router, 'trades:checkNow', {});
    await until('the hanging receiver holds the alert', () => hanging.requests.length === 1);

    // Twenty minutes of the desk's clock with a try held open: four beats or so are due meanwhile.
    const from = d.clock.now();
    const end = d.clock.monotonic() + 20 * MIN;
    const pagesAt: number[] = [];
    while (d.clock.monotonic() < end) {
      const page = await call(d.router, 'ledger:page', { domain: 'listings', limit: 100 });
      expect(page.domain).toBe('listings');
      pagesAt.push(d.clock.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const beats = d.sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent' && r.at >= from);
    const sinceStart = d.sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    await d.desk.close();

    // The try is still held: nothing timed out, nothing was sent twice.
    expect(hanging.requests).toHaveLength(1);
    expect(d.transcript().filter((l) => l.includes('Hanging') && (l.includes('tried again') || l.includes('not delivered')))).toEqual([]);
    // The refusing receiver was tried again and again meanwhile.
    expect(d.transcript().filter((l) => l.includes('alert to be tried again') && l.includes('Dead')).length).toBeGreaterThanOrEqual(3);
    // The service saw every beat answered, each well inside the last one's 600 s.
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(sinceStart.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const gaps = sinceStart.slice(1).map((r, i) => r.at - (sinceStart[i]?.at ?? 0));
    expect(gaps.filter((g) => g >= 600_000)).toEqual([]);
    // Each beat began when the one before planned it (a minute of this clock is a second of the machine's: room for a busy one).
    const done = states.filter((s, i) => s.lastBeatAt !== null && s.lastBeatAt !== states[i - 1]?.lastBeatAt);
    const late = done.slice(1).map((s, i) => (s.lastBeatAt ?? 0) - (done[i]?.nextBeatAt ?? 0));
    expect(late.length).toBeGreaterThanOrEqual(3);
    expect(late.filter((ms) => ms > MIN)).toEqual([]);
    // Pages were answered after every beat of the window, while the try stayed open.
    expect(beats.every((b) => pagesAt.some((at) => at > b.at))).toBe(true);
    console.log(`a receiver holding its alert for 20 min: ${pagesAt.length} ledger pages answered, ${beats.length} beats, the latest ${Math.max(...late)} ms after its plan`);
    await hanging.close();
    noSecretIn(d.transcript());
    noSecretIn(filesOf(d.dataDir));
  }, 90_000);
});

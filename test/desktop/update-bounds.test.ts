import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeUpdate } from '../../src-shared/updates.ts';
import { openAppLog } from '../../src-main/core/shell/app-log.ts';
import { createUpdateController } from '../../src-main/core/shell/update-controller.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { provideToCommonJs } from './fake-electron.ts';
import { leavePackagedAppImage, packagedAppImage } from './updater-support.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
// electron-updater requires electron itself, out of vi.mock's reach.
provideToCommonJs();
const { AppImageUpdater } = await import('electron-updater');
const { electronUpdateSource } = await import('../../src-main/main-thread/desktop/updater.ts');

/**
 * The real electron-updater's check against a feed on 127.0.0.1 that is not
 * a feed: 600 MB where a file of a few kB belongs, and one that answers a
 * byte every two seconds (which no socket idle timeout ever ends). Each ends
 * the check within its bound, the feed's connection closed by the app, with
 * little memory spent, and the failure said in Settings; nothing is thrown
 * past the check.
 */
const HUGE_BYTES = 600 * 1024 * 1024;
const MB = 1024 * 1024;

/** How the feed answers the channel file (latest-linux.yml); set by each test. */
let answer: (res: ServerResponse) => void;
/** What the feed sent for each request, and whether the app closed the connection. */
const served: Array<{ bytes: number; closed: boolean }> = [];
let server: Server;
let feedUrl: string;
let root: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0]?.match(/^\/latest[-a-z0-9]*\.yml$/)) return answer(res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  served.length = 0;
  root = await packagedAppImage(feedUrl, '0.1.0');
});
afterEach(() => leavePackagedAppImage(root));

/** 600 MB of yml comment, made as the socket takes it and never held whole; `declared`: with its Content-Length. */
function hugeFeed(declared: boolean) {
  return (res: ServerResponse) => {
    const record = { bytes: 0, closed: false };
    served.push(record);
    const chunk = Buffer.alloc(64 * 1024, '#');
    const body = new Readable({
      read() {
        const n = Math.min(chunk.length, HUGE_BYTES - record.bytes);
        record.bytes += n;
        this.push(n > 0 ? chunk.subarray(0, n) : null);
      },
    });
    res.on('close', () => {
      record.closed = true;
      body.destroy();
    });
    res.writeHead(200, { 'content-type': 'text/yaml', ...(declared ? { 'content-length': String(HUGE_BYTES) } : {}) });
    body.pipe(res);
  };
}

/** A feed that starts its answer and then sends one byte every two seconds, for as long as the connection lasts. */
function tricklingFeed(res: ServerResponse) {
  const record = { bytes: 0, closed: false };
  served.push(record);
  res.writeHead(200, { 'content-type': 'text/yaml' });
  res.write('version: 0.2.0\n');
  const timer = setInterval(() => {
    res.write('#');
    record.bytes += 1;
  }, 2_000);
  res.on('close', () => {
    clearInterval(timer);
    record.closed = true;
  });
}

/** One check through the controller, with the memory it took: RSS and heap growth at their peak, sampled while it ran. */
async function measuredCheck(checkDeadlineMs?: number) {
  const log = openAppLog({ dir: join(root, 'logs'), level: 'debug' });
  const source = electronUpdateSource(new AppImageUpdater(), log, { feedUrl, publicKeys: [] });
  const controller = createUpdateController({
    source, enabled: () => true, applyRunning: () => false, restart: () => undefined, onChange: () => undefined, clock: scaledClock(1),
    ...(checkDeadlineMs === undefined ? {} : { checkDeadlineMs }),
  });
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  };
  const sampler = setInterval(sample, 5);
  const started = performance.now();
  const view = await controller.checkNow();
  const tookMs = performance.now() - started;
  clearInterval(sampler);
  sample();
  log.close();
  return { view, tookMs, rssGrowthMb: (peak.rss - before.rss) / MB, heapGrowthMb: (peak.heapUsed - before.heapUsed) / MB };
}

function report(what: string, m: Awaited<ReturnType<typeof measuredCheck>>) {
  const sent = served.reduce((sum, s) => sum + s.bytes, 0);
  console.log(`${what}: check ended in ${Math.round(m.tookMs)} ms; peak growth RSS ${m.rssGrowthMb.toFixed(1)} MB, heap ${m.heapGrowthMb.toFixed(1)} MB; feed sent ${(sent / MB).toFixed(2)} MB`);
}

describe('an update check is bounded', () => {
  it.each([
    ['without a Content-Length', false],
    ['with its Content-Length', true],
  ])('a 600 MB feed file %s is read no further than 1 MiB: the check fails and says why', async (what, declared) => {
    answer = hugeFeed(declared);
    const m = await measuredCheck();
    report(`600 MB feed ${what}`, m);
    expect(m.view).toMatchObject({ state: 'error', version: null, percent: null });
    expect(m.view.message).toMatch(/^the update feed sent more than 1 MiB for http:\/\/127\.0\.0\.1:\d+\/latest[-a-z0-9]*\.yml\S*, where a feed file is a few kB, so the app stopped reading it\.$/);
    expect(describeUpdate(m.view)).toBe(`The last update check failed: ${m.view.message}`);
    expect(m.rssGrowthMb).toBeLessThan(50);
    expect(m.heapGrowthMb).toBeLessThan(50);
    // The app hung up: the feed did not get to send its 600 MB.
    await vi.waitFor(() => expect(served.every((s) => s.closed)).toBe(true));
    expect(served.reduce((sum, s) => sum + s.bytes, 0)).toBeLessThan(HUGE_BYTES / 10);
  });

  it('a feed that trickles a byte every two seconds is cut off at the check\'s deadline: the check fails and says why', async () => {
    answer = tricklingFeed;
    const deadlineMs = 3_000;
    const m = await measuredCheck(deadlineMs);
    report('trickling feed', m);
    expect(m.view).toMatchObject({ state: 'error', version: null, percent: null, message: 'the update feed did not answer in full within 3 s, so the check was stopped.' });
    expect(describeUpdate(m.view)).toBe(`The last update check failed: ${m.view.message}`);
    expect(m.tookMs).toBeGreaterThanOrEqual(deadlineMs - 1);
    expect(m.rssGrowthMb).toBeLessThan(50);
    expect(m.heapGrowthMb).toBeLessThan(50);
    // The deadline ended the request itself, not only the wait for it.
    await vi.waitFor(() => expect(served.map((s) => s.closed)).toEqual([true]));
  }, 20_000);
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import { openAppLog } from '../../../src-main/core/shell/app-log.ts';
import { rejection, startTestServer } from '../api/test-server.ts';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'app-log-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

const allText = () => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
const lines = () => allText().split('\n').filter((l) => l !== '');

describe('openAppLog', () => {
  it('writes one JSON line per event, at or above its level', () => {
    const log = openAppLog({ dir, level: 'info' });
    log.debug('not written');
    log.info('started', { version: '0.1.0' });
    log.warn('slow', { ms: 1200 });
    log.error('failed', { error: Object.assign(new Error('boom'), { kind: 'server', status: 503 }) });
    log.close();
    const parsed = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => [p.level, p.msg])).toEqual([['info', 'started'], ['warn', 'slow'], ['error', 'failed']]);
    expect(parsed[0]).toMatchObject({ version: '0.1.0', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(parsed[0]).not.toHaveProperty('hostname');
    expect(parsed[2]?.error).toMatchObject({ name: 'Error', kind: 'server', status: 503, message: 'boom' });
  });

  it('never writes a control character: a value cannot forge a line or hide text', () => {
    const log = openAppLog({ dir });
    const hostile = 'Hat\n{"level":"error","msg":"forged"}\r\u001b[2J\u0000\u0085\u2028\u202eevil';
    log.info(hostile, { item: hostile, [hostile]: 1 });
    log.close();
    const text = allText();
    expect(lines()).toHaveLength(1);
    expect(text.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    expect(JSON.parse(lines()[0] as string).msg).toContain('Hat\\u000a{');
  });

  it('rotates at the size limit and keeps a bounded number of files', () => {
    const log = openAppLog({ dir, maxFileBytes: 2_000, maxFiles: 3 });
    for (let i = 0; i < 200; i++) log.info(`event ${i}`, { pad: 'x'.repeat(50) });
    log.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const f of files) expect(statSync(join(dir, f)).size, f).toBeLessThanOrEqual(2_000);
    // The newest events survive, in order, each line whole.
    const kept = [2, 1, 0].flatMap((n) => readFileSync(join(dir, n === 0 ? 'main.log' : `main.${n}.log`), 'utf8').split('\n').filter(Boolean));
    const numbers = kept.map((l) => Number((JSON.parse(l) as { msg: string }).msg.split(' ')[1]));
    expect(numbers.at(-1)).toBe(199);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('reads back the newest lines for a diagnostics bundle', () => {
    const log = openAppLog({ dir, maxFileBytes: 1_000, maxFiles: 4 });
    for (let i = 0; i < 40; i++) log.info(`event ${i}`);
    const recent = log.recent(400);
    log.close();
    expect(recent.join('\n').length).toBeLessThanOrEqual(400);
    expect(recent.at(-1)).toContain('event 39');
    expect(recent.map((l) => Number((JSON.parse(l) as { msg: string }).msg.split(' ')[1]))).toEqual(
      Array.from({ length: recent.length }, (_, i) => 40 - recent.length + i),
    );
  });
});

describe('the API key never reaches the log', () => {
  const KEY = 'LOGLEAK-7f3a9c2e51b84d06/+=';
  const forms = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];

  it('in messages, fields and errors, in every form a server could echo it', async () => {
    // A server that echoes the key in every error it gives, as in test/core/api/key-leak.test.ts.
    const server = await startTestServer((req, res) => {
      const key = String(req.headers['x-api-key']);
      res.writeHead(req.url?.includes('get_balance') ? 401 : 503, { 'content-type': 'application/json', 'x-echo': key });
      res.end(JSON.stringify({ error: `bad key ${key}`, raw: encodeURIComponent(key) }));
    });
    const client = createMarketplaceClient({ baseUrl: server.url, apiKey: async () => KEY, timeoutMs: 500 });
    const log = openAppLog({ dir, level: 'debug' });
    try {
      // Field names alone keep it out before the key is known…
      log.info('settings read', { apiKey: KEY, headers: { 'X-API-Key': KEY, Authorization: `Bearer ${KEY}` } });
      // …and once known, it is scrubbed wherever it appears.
      log.addSecret(KEY);
      for (const form of forms) log.warn(`echoed ${form}`, { detail: { text: `…${form}…` }, list: [form] });
      log.error(`thrown: ${KEY}`, { error: new Error(`could not decrypt ${KEY}`) });
      for (const call of [() => client.call('get_balance', {}), () => client.call('load_pending', {})]) {
        log.error('request failed', { error: await rejection(call()) });
      }
    } finally {
      log.close();
      await client.close();
      await server.close();
    }
    const text = allText();
    expect(lines().length).toBe(7);
    for (const form of forms) expect(text).not.toContain(form);
    expect(text).toContain('[redacted]');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, channels, type ChannelName } from '../../src-shared/contract.ts';
import { hostileInputs, UNKNOWN_CHANNELS, type FuzzCase } from './fuzz-inputs.ts';
import { call, startLiveDesk, type LiveDesk } from './live-desk.ts';

/**
 * The bridge fuzzed as the issue describes it: hostile values for every field
 * of every channel (generated from the contract's schemas, so new channels are
 * covered), 1 MiB typed arrays, unknown channels, all sent to the real router
 * over a real desk whose service is the simulator. Bad input must come back
 * as the trader's error, small and fast: never `internal`, never more than
 * 64 kB, never slower than 1 s. The figures are printed.
 */

const MAX_REPLY_BYTES = 64 * 1024;
const MAX_REPLY_MS = 1_000;

let live: LiveDesk;
const known: Record<string, unknown> = {};

beforeAll(async () => {
  live = await startLiveDesk(21);
  known.draftId = (await call(live.router, 'drafts:create', { name: 'fuzz target' })).id;
});

afterAll(async () => {
  await live?.close();
});

interface Finding {
  readonly channel: string;
  readonly where: string;
  readonly problem: string;
}

interface Figures {
  calls: number;
  slowestMs: number;
  slowest: string;
  largestBytes: number;
  largest: string;
}

const figures: Figures = { calls: 0, slowestMs: 0, slowest: '', largestBytes: 0, largest: '' };

async function probe(channel: string, c: FuzzCase, findings: Finding[]): Promise<void> {
  const started = performance.now();
  const reply = await live.router.invoke(channel, c.value);
  const ms = performance.now() - started;
  const bytes = Buffer.byteLength(JSON.stringify(reply));
  figures.calls += 1;
  const label = `${channel.slice(0, 40)} ${c.where}`;
  if (ms > figures.slowestMs) Object.assign(figures, { slowestMs: ms, slowest: label });
  if (bytes > figures.largestBytes) Object.assign(figures, { largestBytes: bytes, largest: label });
  const note = (problem: string) => findings.push({ channel: channel.slice(0, 40), where: c.where, problem });
  if (!reply.ok && reply.error.kind === 'internal') note(`internal: ${reply.error.message.slice(0, 120)}`);
  if (bytes > MAX_REPLY_BYTES) note(`reply of ${bytes} bytes`);
  if (ms > MAX_REPLY_MS) note(`reply after ${Math.round(ms)} ms`);
}

function report(findings: readonly Finding[]): string {
  const lines = findings.slice(0, 40).map((f) => `${f.channel} · ${f.where} → ${f.problem}`);
  const more = findings.length > 40 ? [`… and ${findings.length - 40} more`] : [];
  return [...lines, ...more].join('\n');
}

describe('bridge fuzz', () => {
  afterAll(() => {
    console.log(
      `bridge fuzz: ${figures.calls} calls; slowest reply ${figures.slowestMs.toFixed(1)} ms (${figures.slowest}); ` +
        `largest reply ${figures.largestBytes} bytes (${figures.largest})`,
    );
  });

  it.each(CHANNEL_NAMES.map((name) => [name]))('%s: hostile input is refused small and fast, never as internal', async (name: ChannelName) => {
    const findings: Finding[] = [];
    // A case the contract accepts (the router reads a missing input as {}) is not hostile: it does real work, and a balance read waits for its rate slot.
    const hostile = [...hostileInputs(channels[name].input, known)].filter((c) => !channels[name].input.safeParse(c.value ?? {}).success);
    for (const c of hostile) await probe(name, c, findings);
    expect(findings, report(findings)).toEqual([]);
  });

  it('leaves the desk working: same mode, the draft and its service still there', async () => {
    expect(live.desk.status()).toMatchObject({ mode: 'live', serviceUrl: live.service.url });
    expect((await call(live.router, 'drafts:list', {})).drafts.map((d) => d.id)).toContain(known.draftId);
    expect(await live.router.invoke('accounts:list', {})).toMatchObject({ ok: true, value: { main: expect.objectContaining({ role: 'main' }) } });
  });

  it('unknown channels are refused small and fast', async () => {
    const findings: Finding[] = [];
    for (const name of UNKNOWN_CHANNELS) {
      await probe(name, { where: 'name', value: {} }, findings);
      await probe(name, { where: '1 MiB Uint8Array', value: new Uint8Array(1024 * 1024) }, findings);
    }
    expect(findings, report(findings)).toEqual([]);
  });
});

import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataClient, type DataClient, type DataClientState } from '../../../src-main/core/data/client.ts';
import { DomainError } from '../../../src-main/core/errors.ts';
import { packValue, TRANSFER_STRING_BYTES, unpackValue } from '../../../src-main/core/data/protocol.ts';

const spawn = () => new Worker(new URL('./echo-worker.ts', import.meta.url));

let client: DataClient | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
});

async function open(options: { maxRestarts?: number } = {}): Promise<{ client: DataClient; starts: number[]; states: DataClientState[] }> {
  const starts: number[] = [];
  const states: DataClientState[] = [];
  client = await createDataClient({
    spawn,
    maxRestarts: options.maxRestarts ?? 5,
    async onStart(call) {
      starts.push((await call('echo', 'open', [])) as number);
    },
  });
  client.on('state', (s) => states.push(s));
  return { client, starts, states };
}

describe('the data boundary between the main thread and its worker', () => {
  it('answers calls with values and keeps the kind and words of a refusal', async () => {
    const { client: c, starts } = await open();
    expect(starts).toEqual([1]);
    expect(c.state).toBe('ready');
    await expect(c.call('echo', 'add', [2, 3])).resolves.toBe(5);
    await expect(c.call('echo', 'refuse', [])).rejects.toMatchObject({ kind: 'conflict', message: 'not now' });
    await expect(c.call('echo', 'refuse', [])).rejects.toBeInstanceOf(DomainError);
  });

  it('answers a bug or a call of something it does not host as internal, without its details', async () => {
    const { client: c } = await open();
    const bug = await c.call('echo', 'crash', []).catch((e: unknown) => e);
    expect(bug).toMatchObject({ kind: 'internal' });
    expect((bug as Error).message).not.toContain('a bug');
    await expect(c.call('echo', 'constructor', [])).rejects.toMatchObject({ kind: 'internal' });
    await expect(c.call('nothing', 'add', [])).rejects.toMatchObject({ kind: 'internal' });
    await expect(c.call('echo', 'add', Array.from({ length: 20 }, () => 1))).rejects.toMatchObject({ kind: 'internal' });
  });

  it('hands large text over as bytes and gives it back as the same text', async () => {
    const { client: c } = await open();
    const big = (await c.call('echo', 'text', [3_000_000])) as string;
    expect(big).toHaveLength(3_000_000);
    expect(big.slice(0, 3)).toBe('xxx');
    await expect(c.call('echo', 'wrapped', [2_000_000])).resolves.toEqual({ csv: 'y'.repeat(2_000_000), rows: 2_000_000 });
    // A bridge reply carries its text a level further down.
    await expect(c.call('echo', 'reply', [2_000_000])).resolves.toEqual({ ok: true, value: { csv: 'z'.repeat(2_000_000), rows: 2_000_000 } });
    await expect(c.call('echo', 'text', [10])).resolves.toBe('xxxxxxxxxx');
  });

  it('transfers the large text of a bridge reply instead of copying it, and leaves small values as they are', () => {
    const csv = 'c'.repeat(TRANSFER_STRING_BYTES);
    const packed = packValue({ ok: true, value: { csv, rows: 1 } });
    expect(packed.transfer).toHaveLength(1);
    expect((packed.value as { value: { csv: unknown } }).value.csv).toEqual({ transferredText: expect.any(Uint8Array) });
    expect(unpackValue(packed.value)).toEqual({ ok: true, value: { csv, rows: 1 } });
    const small = { ok: true, value: { rows: [{ id: 'a' }] } };
    expect(packValue(small)).toEqual({ value: small, transfer: [] });
  });

  it('passes the worker’s events on', async () => {
    const { client: c } = await open();
    const heard: unknown[] = [];
    c.on('event', (e) => heard.push(e));
    await c.call('echo', 'shout', ['hi']);
    expect(heard).toEqual([{ event: 'shout', payload: { name: 'hi' } }]);
  });

  it('keeps the main thread free while the worker is busy', async () => {
    const { client: c } = await open();
    const started = Date.now();
    const busy = c.call('echo', 'spin', [400]);
    // A timer on the main thread fires on time while the worker spins.
    const late = await new Promise<number>((resolve) => {
      const due = Date.now() + 20;
      setTimeout(() => resolve(Date.now() - due), 20);
    });
    expect(late).toBeLessThan(200);
    await expect(busy).resolves.toBe(400);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('restarts a worker that dies: the call under way is refused as busy, later calls go to the new one, opened again', async () => {
    const { client: c, starts, states } = await open();
    const underWay = c.call('echo', 'wait', [5_000]);
    await c.kill();
    await expect(underWay).rejects.toMatchObject({ kind: 'busy', message: expect.stringMatching(/restarted/) });
    // Made while it restarts: waits for the new worker, which was opened first.
    await expect(c.call('echo', 'add', [1, 1])).resolves.toBe(2);
    expect(states).toEqual(['restarting', 'ready']);
    expect(starts).toEqual([1, 1]);
  });

  it('stops restarting a worker that keeps dying, and says so on every call', async () => {
    const { client: c, states } = await open({ maxRestarts: 1 });
    await c.kill();
    await expect(c.call('echo', 'add', [1, 1])).resolves.toBe(2);
    await c.kill();
    await expect(c.call('echo', 'add', [1, 1])).rejects.toMatchObject({ kind: 'internal', message: expect.stringMatching(/restart the app/) });
    expect(states.at(-1)).toBe('failed');
  });

  it('answers what was asked before it closes', async () => {
    const { client: c } = await open();
    const asked = c.call('echo', 'wait', [200]);
    await c.close();
    await expect(asked).resolves.toBe(200);
    await expect(c.call('echo', 'add', [1, 1])).rejects.toMatchObject({ message: expect.stringMatching(/closed/) });
  });
});

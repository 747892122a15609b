import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataClient, type DataClient, type DataClientState } from '../../../src-main/main-thread/data-client.ts';
import type { Liveness } from '../../../src-main/main-thread/liveness.ts';
import { createDataHost } from '../../../src-main/worker/data-host.ts';
import { DomainError } from '../../../src-main/core/errors.ts';
import { packValue, TRANSFER_STRING_BYTES, unpackValue } from '../../../src-main/core/data/protocol.ts';
import { ECHO_MAIN_METHODS, ECHO_METHODS } from './echo-methods.ts';

const spawn = () => new Worker(new URL('./echo-worker.ts', import.meta.url));

let client: DataClient<typeof ECHO_METHODS> | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
});

interface Opened {
  client: DataClient<typeof ECHO_METHODS>;
  starts: number[];
  states: DataClientState[];
  hangs: number[];
}

async function open(options: { maxRestarts?: number; liveness?: Liveness; double?: (n: number) => number | Promise<number> } = {}): Promise<Opened> {
  const starts: number[] = [];
  const states: DataClientState[] = [];
  const hangs: number[] = [];
  client = await createDataClient({
    methods: ECHO_METHODS,
    spawn,
    maxRestarts: options.maxRestarts ?? 5,
    ...(options.liveness ? { liveness: options.liveness } : {}),
    onHang: (silentMs) => void hangs.push(silentMs),
    answers: { methods: ECHO_MAIN_METHODS, implementation: { main: { double: options.double ?? ((n) => n * 2) } } },
    async onStart(call) {
      starts.push(await call('echo', 'open'));
    },
  });
  client.on('state', (s) => states.push(s));
  return { client, starts, states, hangs };
}

describe('the data boundary between the main thread and its worker', () => {
  it('answers calls with values and keeps the kind and words of a refusal', async () => {
    const { client: c, starts } = await open();
    expect(starts).toEqual([1]);
    expect(c.state).toBe('ready');
    await expect(c.call('echo', 'add', 2, 3)).resolves.toBe(5);
    await expect(c.call('echo', 'refuse')).rejects.toMatchObject({ kind: 'conflict', message: 'not now' });
    await expect(c.call('echo', 'refuse')).rejects.toBeInstanceOf(DomainError);
  });

  it('answers a bug as internal, without its details, and refuses an answer that does not fit its method', async () => {
    const { client: c } = await open();
    const bug = await c.call('echo', 'crash').catch((e: unknown) => e);
    expect(bug).toMatchObject({ kind: 'internal' });
    expect((bug as Error).message).not.toContain('a bug');
    await expect(c.call('echo', 'misfit')).rejects.toMatchObject({ kind: 'internal', message: expect.stringMatching(/echo\.misfit.*does not fit/) });
  });

  it('hosts only the methods of its map, with the arguments the map says', async () => {
    const unexpected: string[] = [];
    const host = createDataHost({
      methods: ECHO_METHODS,
      targets: () => ({ echo: { ...noEcho, add: (a: number, b: number) => a + b } }),
      onUnexpected: (where) => void unexpected.push(where),
    });
    const ask = async (target: string, method: string, args: unknown[]) => (await host.handle({ id: 7, target, method, args })).reply;
    await expect(ask('echo', 'add', [2, 3])).resolves.toEqual({ id: 7, ok: true, value: 5 });
    for (const [target, method, args] of [['echo', 'constructor', []], ['echo', 'toString', []], ['nothing', 'add', [1, 2]], ['echo', 'add', ['2', 3]], ['echo', 'add', [1]], ['echo', 'add', Array.from({ length: 20 }, () => 1)]] as const) {
      const reply = await ask(target, method, [...args]);
      expect(reply, `${target}.${method}(${JSON.stringify(args)})`).toMatchObject({ id: 7, ok: false, error: { kind: 'internal' } });
    }
    expect(unexpected).toEqual(['echo.add', 'echo.add']);
    await expect(host.handle('not a request')).resolves.toMatchObject({ reply: { id: -1, ok: false, error: { kind: 'internal' } } });
  });

  it('hands large text over as bytes and gives it back as the same text', async () => {
    const { client: c } = await open();
    const big = await c.call('echo', 'text', 3_000_000);
    expect(big).toHaveLength(3_000_000);
    expect(big.slice(0, 3)).toBe('xxx');
    await expect(c.call('echo', 'wrapped', 2_000_000)).resolves.toEqual({ csv: 'y'.repeat(2_000_000), rows: 2_000_000 });
    // A bridge reply carries its text a level further down.
    await expect(c.call('echo', 'reply', 2_000_000)).resolves.toEqual({ ok: true, value: { csv: 'z'.repeat(2_000_000), rows: 2_000_000 } });
    await expect(c.call('echo', 'text', 10)).resolves.toBe('xxxxxxxxxx');
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

  it('carries a bridge call with the renderer’s input as it came, and reads its reply by the channel’s output schema', async () => {
    const { client: c } = await open();
    await expect(c.bridge('drafts:removeFailed', { n: 3 })).resolves.toEqual({ result: { ok: true, value: { removed: 3 } } });
    await expect(c.bridge('drafts:removeFailed', { n: 'three' })).resolves.toEqual({ misfit: expect.stringMatching(/^output of drafts:removeFailed does not match/) });
    // A large text crosses as bytes and is read back as the same text.
    await expect(c.bridge('drafts:exportCsv', {})).resolves.toEqual({ result: { ok: true, value: { csv: 'c'.repeat(2_000_000) } } });
  });

  it('passes the worker’s events on', async () => {
    const { client: c } = await open();
    const heard: unknown[] = [];
    c.on('event', (e) => heard.push(e));
    await c.call('echo', 'shout', 'hi');
    expect(heard).toEqual([{ event: 'shout', payload: { name: 'hi' } }]);
  });

  it('answers what the worker asks of main through main’s own map, with the kind of a refusal and a deadline', async () => {
    let answer: (n: number) => number | Promise<number> = (n) => n * 2;
    const { client: c } = await open({ double: (n) => answer(n) });
    await expect(c.call('echo', 'askDouble', 21)).resolves.toBe(42);
    answer = () => {
      throw new DomainError('conflict', 'not doubling now');
    };
    await expect(c.call('echo', 'askDouble', 1)).rejects.toMatchObject({ kind: 'conflict', message: 'not doubling now' });
    // Main never answers: the worker's ask ends at its deadline (500 ms), and so does the call.
    answer = () => new Promise<number>(() => undefined);
    await expect(c.call('echo', 'askDouble', 1)).rejects.toMatchObject({ kind: 'busy', message: expect.stringMatching(/did not answer/) });
    // An answer that does not fit the map is refused in the worker.
    answer = () => Number('not a number');
    await expect(c.call('echo', 'askDouble', 1)).rejects.toMatchObject({ kind: 'internal' });
  });

  it('keeps the main thread free while the worker is busy', async () => {
    const { client: c } = await open();
    const started = Date.now();
    const busy = c.call('echo', 'spin', 400);
    // A timer on the main thread fires on time while the worker spins.
    const late = await new Promise<number>((resolve) => {
      const due = Date.now() + 20;
      setTimeout(() => resolve(Date.now() - due), 20);
    });
    expect(late).toBeLessThan(200);
    await expect(busy).resolves.toBe(400);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('ends a call past its method’s deadline in a busy error, drops its late answer, and goes on', async () => {
    const { client: c, states } = await open();
    const late = await c.call('echo', 'slow', 1_000).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DomainError);
    expect(late).toMatchObject({ kind: 'busy', message: expect.stringMatching(/did not answer within/) });
    await expect(c.call('echo', 'slow', 10)).resolves.toBe(10);
    // The late answer arrives meanwhile and is dropped; the worker was never taken for dead.
    await new Promise((r) => setTimeout(r, 900));
    await expect(c.call('echo', 'add', 1, 2)).resolves.toBe(3);
    expect(states).toEqual([]);
  });

  it('ends a worker that stops answering, within the stated time, and restarts it: the caller gets busy, not a hang', async () => {
    const liveness = { pingEveryMs: 100, hangAfterMs: 400 };
    const { client: c, states, starts, hangs } = await open({ liveness });
    const started = Date.now();
    const stuck = await c.call('echo', 'hang').catch((e: unknown) => e);
    const refusedAfter = Date.now() - started;
    expect(stuck).toMatchObject({ kind: 'busy', message: expect.stringMatching(/restarted/) });
    // Found within one ping interval and the silence allowed (plus the time to end a thread).
    expect(refusedAfter).toBeLessThan(liveness.pingEveryMs + liveness.hangAfterMs + 2_000);
    expect(hangs).toHaveLength(1);
    expect(hangs[0]).toBeGreaterThanOrEqual(liveness.hangAfterMs);
    await expect(c.call('echo', 'add', 1, 1)).resolves.toBe(2);
    expect(states).toEqual(['restarting', 'ready']);
    expect(starts).toEqual([1, 1]);
  });

  it('does not take a worker that is busy but answering for a hung one', async () => {
    const { client: c, states, hangs } = await open({ liveness: { pingEveryMs: 50, hangAfterMs: 1_000 } });
    // Three seconds of work in steps of 100 ms, the thread turning between them: each ping is answered in time.
    for (let i = 0; i < 30; i++) await c.call('echo', 'spin', 100);
    expect(hangs).toEqual([]);
    expect(states).toEqual([]);
  });

  it('restarts a worker that dies: the call under way is refused as busy, later calls go to the new one, opened again', async () => {
    const { client: c, starts, states } = await open();
    const underWay = c.call('echo', 'wait', 5_000);
    await c.kill();
    await expect(underWay).rejects.toMatchObject({ kind: 'busy', message: expect.stringMatching(/restarted/) });
    // Made while it restarts: waits for the new worker, which was opened first.
    await expect(c.call('echo', 'add', 1, 1)).resolves.toBe(2);
    expect(states).toEqual(['restarting', 'ready']);
    expect(starts).toEqual([1, 1]);
  });

  it('stops restarting a worker that keeps dying, and says so on every call', async () => {
    const { client: c, states } = await open({ maxRestarts: 1 });
    await c.kill();
    await expect(c.call('echo', 'add', 1, 1)).resolves.toBe(2);
    await c.kill();
    await expect(c.call('echo', 'add', 1, 1)).rejects.toMatchObject({ kind: 'internal', message: expect.stringMatching(/restart the app/) });
    expect(states.at(-1)).toBe('failed');
  });

  it('answers what was asked before it closes', async () => {
    const { client: c } = await open();
    const asked = c.call('echo', 'wait', 200);
    await c.close();
    await expect(asked).resolves.toBe(200);
    await expect(c.call('echo', 'add', 1, 1)).rejects.toMatchObject({ message: expect.stringMatching(/closed/) });
  });
});

const never = (): never => {
  throw new Error('not called');
};
/** The echo service with nothing but failures: each test host puts in the method it calls. */
const noEcho = {
  open: never, add: never, refuse: never, crash: never, text: never, wrapped: never, reply: never, wait: never,
  slow: never, spin: never, hang: never, misfit: never, shout: never, askDouble: never,
};

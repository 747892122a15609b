import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDesk } from '../../src-main/main-thread/desk-connection.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';

/**
 * The data worker's entry keeps V8's compiled code in the folder main names
 * (Node's compile cache), so later starts skip compiling the desk's bundle;
 * a folder it cannot write costs only that.
 */
const ENTRY = new URL('../../src-main/worker/compiled-start.ts', import.meta.url);

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function startAndClose(dataDir: string, compileCache: string): Promise<number> {
  const quiet = () => undefined;
  const desk = await connectDesk({
    spawn: () => new Worker(ENTRY, { workerData: { compileCache } }),
    secrets: memoryKeychain(),
    config: { dataDir, version: 'test', clock: null, sandbox: {} },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  try {
    return (await call(desk.router, 'ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 10 })).total;
  } finally {
    await desk.close();
  }
}

setFlagsFromString('--allow-natives-syntax');
const isTurboFan = new Function('f', 'return %IsTurboFanFunction(f)') as (f: unknown) => boolean;
const isLiftoff = new Function('f', 'return %IsLiftoffFunction(f)') as (f: unknown) => boolean;

/** Node has WebAssembly; the Node project's TypeScript libraries do not declare it. */
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: Record<string, unknown> } };
};

/**
 * A wasm module of one function, `sum(n)`, that adds n + (n-1) + … + 1 in a
 * loop. V8 caches compiled modules by their bytes, so each call gets its own
 * through a custom section named by `tag`.
 */
function sumModule(tag: number): Uint8Array {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
    0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
    0x03, 0x02, 0x01, 0x00, // function 0 has type 0
    0x07, 0x07, 0x01, 0x03, 0x73, 0x75, 0x6d, 0x00, 0x00, // export "sum"
    0x0a, 0x1b, 0x01, 0x19, 0x01, 0x01, 0x7f, // code: one body, one i32 local
    0x03, 0x40, 0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01, // loop: acc += n
    0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, // n -= 1; loop while n
    0x20, 0x01, 0x0b, // return acc
    0x00, 0x02, 0x01, tag, // custom section
  ]);
}

/** Runs a fresh module's function hot, then keeps calling it for up to `forMs` or until TurboFan's code replaces it. */
async function runHot(tag: number, forMs: number): Promise<(n: number) => number> {
  const sum = new wasm.Instance(new wasm.Module(sumModule(tag))).exports.sum as (n: number) => number;
  expect(sum(4)).toBe(10);
  for (let i = 0; i < 20; i++) sum(1_000_000);
  const started = Date.now();
  while (!isTurboFan(sum) && Date.now() - started < forMs) {
    sum(1_000);
    await sleep(20);
  }
  return sum;
}

const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder, { recursive: true }).length : 0);

describe('the data worker’s entry', () => {
  // Before any worker: V8's flags are the process's, and the entry sets them.
  let tieredUpBefore = false;
  beforeAll(async () => {
    tieredUpBefore = isTurboFan(await runHot(1, 5_000));
  });

  // The first start in this process: V8's flags change only now, and a second start must find its code under the same tag.
  it('keeps the compiled code in the folder it is given, and starts again on it with nothing new to keep', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-compiled-start-'));
    const cache = join(dir, 'compile-cache');
    expect(await startAndClose(join(dir, 'profiles'), cache)).toBe(0);
    const kept = filesIn(cache);
    expect(kept).toBeGreaterThan(10);
    expect(await startAndClose(join(dir, 'profiles'), cache)).toBe(0);
    expect(filesIn(cache)).toBe(kept);
  });

  it('starts without it when the folder cannot be made', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-compiled-start-'));
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    expect(await startAndClose(join(dir, 'profiles'), join(blocked, 'compile-cache'))).toBe(0);
  });

  it("keeps WebAssembly on Liftoff in its process, so undici's llhttp parser is never recompiled with TurboFan", async () => {
    // The control: before any worker, V8 tiered a hot wasm function up (else this test could not fail).
    expect(tieredUpBefore).toBe(true);

    dir = await mkdtemp(join(tmpdir(), 'desk-compiled-start-'));
    expect(await startAndClose(join(dir, 'profiles'), join(dir, 'compile-cache'))).toBe(0);
    const after = await runHot(2, 500);
    expect(isTurboFan(after)).toBe(false);
    expect(isLiftoff(after)).toBe(true);
  });
});

import { setFlagsFromString } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { lazyPool } from '../../../src-main/core/api/transport.ts';

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

describe('keepWasmOnBaseline', () => {
  it("keeps WebAssembly on Liftoff once the first pool is made, so llhttp's parser is never recompiled with TurboFan", async () => {
    // The control: before any pool, V8 tiers a hot wasm function up (else this test could not fail).
    expect(isTurboFan(await runHot(1, 5_000))).toBe(true);

    const pool = lazyPool('http://127.0.0.1:9', {});
    await pool.get();
    const after = await runHot(2, 500);
    expect(isTurboFan(after)).toBe(false);
    expect(isLiftoff(after)).toBe(true);
    await pool.close();
  });
});

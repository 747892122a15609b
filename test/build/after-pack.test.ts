import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type AfterPack = (context: unknown) => Promise<void>;
const afterPack = createRequire(import.meta.url)('../../build/after-pack.cjs') as AfterPack;

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults: run-as-node, NODE_OPTIONS and --inspect on; asar checks off. */
const ELECTRON_DEFAULT_WIRE = '101100011';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'after-pack-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

/** A stand-in binary: some bytes, the fuse sentinel, a v1 wire, more bytes. */
async function fakeElectron(path: string): Promise<void> {
  const wire = Buffer.from(ELECTRON_DEFAULT_WIRE, 'ascii');
  await writeFile(path, Buffer.concat([
    Buffer.alloc(4096, 7), Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, wire.length]), wire, Buffer.alloc(4096, 9),
  ]));
}

describe('after-pack fuses', () => {
  it('flips the fuses in a packaged Linux binary as the security checklist asks', async () => {
    const binary = join(dir, 'marketplace-desk');
    await fakeElectron(binary);
    const before = await readFile(binary);
    await afterPack({
      appOutDir: dir, electronPlatformName: 'linux', arch: 1,
      packager: { executableName: 'marketplace-desk', appInfo: { productFilename: 'Marketplace Desk' } },
    });
    const wire = await getCurrentFuseWire(binary);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    // Fuses it does not name keep Electron's defaults; the rest of the file is untouched.
    expect(wire[FuseV1Options.WasmTrapHandlers]).toBe(FuseState.ENABLE);
    const after = await readFile(binary);
    expect(after.length).toBe(before.length);
    expect(after.subarray(0, 4096 + SENTINEL.length + 2)).toEqual(before.subarray(0, 4096 + SENTINEL.length + 2));
  });

  it('finds the Windows executable by the product name', async () => {
    const binary = join(dir, 'Marketplace Desk.exe');
    await fakeElectron(binary);
    await afterPack({
      appOutDir: dir, electronPlatformName: 'win32', arch: 1,
      packager: { executableName: 'Marketplace Desk', appInfo: { productFilename: 'Marketplace Desk' } },
    });
    expect((await getCurrentFuseWire(binary))[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
  });
});

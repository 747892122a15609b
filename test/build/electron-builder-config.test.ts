import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../src-main/core/shell/app-identity.ts';

/**
 * The installer configuration, checked offline as far as electron-builder
 * allows: its own schema validation (what `electron-builder` runs first), and
 * the files the configuration names. Packaging itself needs to download
 * Electron and runs on a machine with the network (`npm run dist`).
 */
const root = join(import.meta.dirname, '..', '..');
const config = await getConfig(root, join(root, 'build', 'electron-builder.yml'), null);

describe('electron-builder configuration', () => {
  it('passes electron-builder\'s own validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('uses the app id notifications are registered under', () => {
    expect(config.appId).toBe(APP_ID);
  });

  it('builds NSIS, dmg with the hardened runtime, AppImage and deb', () => {
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
  });

  it('names files that exist', () => {
    for (const file of [config.afterPack, config.mac?.entitlements, config.mac?.entitlementsInherit, config.win?.icon, config.mac?.icon]) {
      expect(typeof file).toBe('string');
      expect(existsSync(join(root, file as string)), String(file)).toBe(true);
    }
    const iconDir = join(root, String(config.linux?.icon));
    for (const size of ['16x16', '32x32', '256x256', '512x512']) expect(existsSync(join(iconDir, `${size}.png`))).toBe(true);
  });

  it('grants the macOS hardened runtime only the JIT exception', () => {
    const plist = readFileSync(join(root, 'build', 'entitlements.mac.plist'), 'utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual(['com.apple.security.cs.allow-jit']);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join, matchesGlob, relative, sep } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src-main/core/shell/app-paths.ts';
import { TRAY_ICON_NAMES } from '../../src-main/core/shell/tray-state.ts';
import { APP_ID } from '../../src-main/core/shell/app-identity.ts';
import { UPDATE_FEED_URL } from '../../src-main/core/shell/update-trust.ts';

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

  it('builds NSIS, dmg and zip (what macOS updates from) for both Mac architectures with the hardened runtime, AppImage and deb', () => {
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }, { target: 'zip', arch: ['x64', 'arm64'] }]);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
  });

  it('names files without spaces: they are URLs in latest*.yml and release asset names', () => {
    for (const name of [config.nsis?.artifactName, config.mac?.artifactName, config.dmg?.artifactName, config.appImage?.artifactName]) {
      expect(name).toMatch(/^[^\s]+$/);
    }
  });

  it('publishes to the feed the app pins, and only there', () => {
    expect(config.publish).toEqual([{ provider: 'generic', url: UPDATE_FEED_URL, channel: 'latest' }]);
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

describe('what the packaged app loads at run time', () => {
  // The composition root's own answer for a packaged app, with placeholders for the two roots.
  const paths = appPaths({ packaged: true, mainDir: '/APP/out/main', appPath: '/APP', resourcesPath: '/RES' });
  const inApp = (path: string) => relative('/APP', path).split(sep).join('/');
  const inResources = (path: string) => relative('/RES', path).split(sep).join('/');
  // getConfig normalises `files` to [{ filter: [...] }].
  const patterns = ((config.files ?? []) as Array<string | { filter?: string[] }>).flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])));
  /** Whether electron-builder's `files` patterns put this project file into app.asar. */
  const packaged = (file: string) => {
    let included = false;
    for (const pattern of patterns) {
      if (pattern.startsWith('!')) { if (matchesGlob(file, pattern.slice(1))) included = false; }
      else if (matchesGlob(file, pattern)) included = true;
    }
    return included;
  };
  /** The project file an extraResources entry copies to this path under resources/, if any. */
  const resourceSource = (target: string): string | null => {
    for (const entry of (config.extraResources ?? []) as Array<{ from: string; to: string }>) {
      if (target === entry.to) return entry.from;
      if (target.startsWith(`${entry.to}/`)) return join(entry.from, target.slice(entry.to.length + 1));
    }
    return null;
  };

  it('puts the main bundle, the data worker, the preload and the renderer inside app.asar', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    // The main process starts the data worker from beside its own bundle (main-process.ts).
    const worker = `${pkg.main.split('/').slice(0, -1).join('/')}/desk-worker.cjs`;
    for (const file of [pkg.main, worker, inApp(paths.preload), `${inApp(paths.rendererDir)}/index.html`, `${inApp(paths.rendererDir)}/assets/index.js`]) {
      expect(packaged(file), file).toBe(true);
    }
    expect(packaged('out/main/index.cjs.map')).toBe(false);
    expect(packaged('src-main/main-thread/desktop/index.ts')).toBe(false);
  });

  it('copies every tray icon and the window icon to resources/', () => {
    const icons = [paths.appIcon, ...TRAY_ICON_NAMES.flatMap((name) => [`${name}.png`, `${name}@2x.png`].map((f) => join(paths.trayIconDir, f)))];
    for (const icon of icons) {
      const source = resourceSource(inResources(icon));
      expect(source, inResources(icon)).not.toBeNull();
      expect(existsSync(join(root, source as string)), String(source)).toBe(true);
    }
  });

  it('publishes updates to a generic feed over HTTPS', () => {
    const publish = (Array.isArray(config.publish) ? config.publish : [config.publish]) as Array<{ provider: string; url?: string }>;
    expect(publish).toEqual([expect.objectContaining({ provider: 'generic', url: expect.stringMatching(/^https:\/\//) })]);
  });
});

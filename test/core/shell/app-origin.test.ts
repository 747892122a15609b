import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isTrustedRendererUrl, resolveAppAsset } from '../../../src-main/core/shell/app-origin.ts';

const root = join('/opt', 'desk', 'renderer');

describe('isTrustedRendererUrl', () => {
  it('trusts the app scheme and host only', () => {
    expect(isTrustedRendererUrl(APP_ENTRY_URL)).toBe(true);
    expect(isTrustedRendererUrl('app://desk/#/trades')).toBe(true);
    expect(isTrustedRendererUrl('app://desk.evil/index.html')).toBe(false);
    expect(isTrustedRendererUrl('app://other/index.html')).toBe(false);
    expect(isTrustedRendererUrl('app://user@desk/index.html')).toBe(false);
    expect(isTrustedRendererUrl('file:///opt/desk/renderer/index.html')).toBe(false);
    expect(isTrustedRendererUrl('https://steamcommunity.com/')).toBe(false);
    expect(isTrustedRendererUrl('')).toBe(false);
  });

  it('trusts the dev server\'s exact origin in development only', () => {
    const dev = { devServerUrl: 'http://localhost:5173/' };
    expect(isTrustedRendererUrl('http://localhost:5173/src/App.vue', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/')).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isTrustedRendererUrl('https://localhost:5173/', dev)).toBe(false);
  });
});

describe('resolveAppAsset', () => {
  it('maps app URLs to files under the renderer folder with their type', () => {
    expect(resolveAppAsset(root, 'app://desk/index.html')).toEqual({
      filePath: join(root, 'index.html'), contentType: 'text/html; charset=utf-8',
    });
    expect(resolveAppAsset(root, 'app://desk/assets/index-abc.js?v=1')).toEqual({
      filePath: join(root, 'assets', 'index-abc.js'), contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppAsset(root, 'app://desk/assets/a%20b.css')?.filePath).toBe(join(root, 'assets', 'a b.css'));
    expect(resolveAppAsset(root, 'app://desk/blob.bin')?.contentType).toBe('application/octet-stream');
  });

  it('serves index.html for the root and for client-side routes', () => {
    expect(resolveAppAsset(root, 'app://desk/')?.filePath).toBe(join(root, 'index.html'));
    expect(resolveAppAsset(root, 'app://desk/trades/42')?.filePath).toBe(join(root, 'index.html'));
  });

  it('keeps literal dot segments inside the folder (the URL parser resolves them, encoded or not)', () => {
    expect(resolveAppAsset(root, 'app://desk/../../etc/passwd.txt')?.filePath).toBe(join(root, 'etc', 'passwd.txt'));
    expect(resolveAppAsset(root, 'app://desk/%2e%2e/%2e%2e/etc/passwd.txt')?.filePath).toBe(join(root, 'etc', 'passwd.txt'));
  });

  it.each([
    ['an encoded slash escape', 'app://desk/..%2f..%2fetc%2fpasswd.txt'],
    ['an encoded backslash', 'app://desk/..%5c..%5csecret.txt'],
    ['a NUL byte', 'app://desk/index.html%00.png'],
    ['a malformed escape', 'app://desk/%E0%A4%A.js'],
    ['another host', 'app://evil/index.html'],
    ['another scheme', 'file:///opt/desk/renderer/index.html'],
  ])('refuses %s', (_why, url) => {
    expect(resolveAppAsset(root, url)).toBeNull();
  });
});

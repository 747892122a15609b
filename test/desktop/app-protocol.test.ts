import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { protocol, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { applyDevServerCsp, registerAppScheme, respondWithAsset, serveRenderer } = await import('../../src-main/main-thread/desktop/app-protocol.ts');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'renderer-'));
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, '..', 'outside-secret.txt'), 'secret');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(join(root, '..', 'outside-secret.txt'), { force: true });
});
beforeEach(() => resetFakeElectron());

describe('app protocol', () => {
  it('registers app:// as a standard, secure scheme', () => {
    registerAppScheme();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
  });

  it('serves the renderer with a strict CSP header', async () => {
    const res = await respondWithAsset(root, new Request('app://desk/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(res.headers.get('content-security-policy')).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<script type="module"');
    const js = await respondWithAsset(root, new Request('app://desk/assets/app.js'));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('refuses files outside the renderer, missing files and writes', async () => {
    expect((await respondWithAsset(root, new Request('app://desk/..%2foutside-secret.txt'))).status).toBe(404);
    expect((await respondWithAsset(root, new Request('app://desk/missing.js'))).status).toBe(404);
    expect((await respondWithAsset(root, new Request('app://other/index.html'))).status).toBe(404);
    expect((await respondWithAsset(root, new Request('app://desk/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('hands the session a handler for the app scheme', async () => {
    const handle = vi.fn();
    serveRenderer({ protocol: { handle } } as never, root);
    expect(handle).toHaveBeenCalledWith('app', expect.any(Function));
    const handler = handle.mock.calls[0]?.[1] as (r: Request) => Promise<Response>;
    expect((await handler(new Request('app://desk/'))).headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('adds the policy to the dev server\'s responses in development', () => {
    const onHeadersReceived = vi.fn();
    applyDevServerCsp({ webRequest: { onHeadersReceived } } as never, 'http://localhost:5173/');
    expect(onHeadersReceived.mock.calls[0]?.[0]).toEqual({ urls: ['http://localhost:5173/*'] });
    const listener = onHeadersReceived.mock.calls[0]?.[1] as (d: unknown, cb: (r: unknown) => void) => void;
    const callback = vi.fn();
    listener({ responseHeaders: { 'Content-Type': ['text/html'] } }, callback);
    const headers = (callback.mock.calls[0]?.[0] as { responseHeaders: Record<string, string[]> }).responseHeaders;
    expect(headers['Content-Type']).toEqual(['text/html']);
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
  });
});

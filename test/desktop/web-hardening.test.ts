import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, fakeEvent, FakeWebContents, resetFakeElectron, shell } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { hardenEveryWebContents, hardenSession, hardenWebContents } = await import('../../src-main/main-thread/desktop/web-hardening.ts');

const links = { serviceOrigins: [] };

function fakeSession() {
  const handlers: {
    request?: (wc: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void;
    check?: (wc: unknown, permission: string, origin: string, details: unknown) => boolean;
    device?: (details: unknown) => boolean;
  } = {};
  return {
    handlers,
    setPermissionRequestHandler: (h: typeof handlers.request) => { handlers.request = h; },
    setPermissionCheckHandler: (h: typeof handlers.check) => { handlers.check = h; },
    setDevicePermissionHandler: (h: typeof handlers.device) => { handlers.device = h; },
  };
}

beforeEach(() => resetFakeElectron());

describe('hardenSession', () => {
  it('denies every permission request and check, the app\'s own page included', () => {
    const session = fakeSession();
    hardenSession(session as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const callback = vi.fn();
      session.handlers.request?.({}, permission, callback, { requestingUrl: 'app://desk/index.html' });
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(session.handlers.check?.({}, permission, 'app://desk', {})).toBe(false);
    }
    expect(session.handlers.device?.({ deviceType: 'usb', origin: 'app://desk' })).toBe(false);
  });
});

describe('hardenEveryWebContents', () => {
  it('hardens web contents created anywhere in the app', () => {
    hardenEveryWebContents(app as never, { links });
    const contents = new FakeWebContents();
    app.emit('web-contents-created', fakeEvent(), contents);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const nav = fakeEvent({ url: 'https://evil.example/' });
    contents.emit('will-navigate', nav);
    expect(nav.defaultPrevented).toBe(true);
  });

  it('applies once, so one click opens one browser tab', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { links });
    hardenWebContents(contents as never, { links });
    contents.emit('will-navigate', fakeEvent({ url: 'https://steamcommunity.com/tradeoffer/1/' }));
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('reads a policy given as a function at each link, so a changed service URL counts', () => {
    let origins = ['https://old.example'];
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { links: () => ({ serviceOrigins: origins }) });
    contents.windowOpenHandler?.({ url: 'https://new.example/help' });
    origins = ['https://new.example'];
    contents.windowOpenHandler?.({ url: 'https://new.example/help' });
    expect(shell.openExternal.mock.calls).toEqual([['https://new.example/help']]);
  });

  it('reports what it refused', () => {
    const refused: Array<[string, string]> = [];
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { links, onRefused: (what, url) => refused.push([what, url]) });
    contents.windowOpenHandler?.({ url: 'https://evil.example/' });
    expect(refused).toEqual([['window', 'https://evil.example/'], ['link', 'https://evil.example/']]);
  });
});

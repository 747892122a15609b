import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { createEmitter } from '../../src-main/core/events.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { FakeWebContents, ipcMain, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { bindRouter, UNTRUSTED_SENDER } = await import('../../src-main/main-thread/desktop/ipc.ts');

/**
 * A router as the bridge builds it: zod on every input, field names in the
 * error. Its channel and events are made up (bindRouter binds whatever names
 * a router lists), so it is handed over as a Router by a cast.
 */
function testRouter() {
  const schemas = { 'listings:setPrice': z.object({ listing_id: z.string().min(1), price: z.number().int().positive() }) };
  const emitter = createEmitter<{ push: { event: string; payload: unknown } }>();
  const calls: unknown[] = [];
  const fake = {
    channels: Object.keys(schemas),
    events: ['trades:changed'],
    async invoke(channel: string, input: unknown) {
      const schema = schemas[channel as keyof typeof schemas];
      if (!schema) return { ok: false, error: { kind: 'unknown_channel', message: channel } };
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        return { ok: false, error: { kind: 'invalid', message: `Invalid ${issues.map((i) => i.field).join(', ')}`, issues } };
      }
      calls.push(parsed.data);
      return { ok: true, value: { saved: parsed.data.listing_id } };
    },
    subscribe: (listener: (event: string, payload: unknown) => void) => emitter.on('push', ({ event, payload }) => listener(event, payload)),
  };
  const router = fake as unknown as Router;
  return { router, calls, push: (event: string, payload: unknown) => emitter.emit('push', { event, payload }) };
}

const frame = (url: string, parent: object | null = null) => ({ senderFrame: { url, parent } });

function call(channel: string, event: unknown, input: unknown) {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`nothing bound to ${channel}`);
  return handler(event, input);
}

beforeEach(() => resetFakeElectron());

describe('bindRouter', () => {
  it('binds every channel and passes calls from the app\'s page to the router', async () => {
    const { router, calls } = testRouter();
    bindRouter(ipcMain as never, router, { trusted: {}, target: () => null });
    expect([...ipcMain.handlers.keys()]).toEqual(['listings:setPrice']);
    const result = await call('listings:setPrice', frame('app://desk/index.html#/listings'), { listing_id: 'L1', price: 250 });
    expect(result).toEqual({ ok: true, value: { saved: 'L1' } });
    expect(calls).toEqual([{ listing_id: 'L1', price: 250 }]);
  });

  it.each([
    ['a foreign page', frame('https://evil.example/')],
    ['a look-alike host', frame('app://desk.evil/index.html')],
    ['a file page', frame('file:///opt/desk/renderer/index.html')],
    ['a subframe of the app', frame('app://desk/index.html', { url: 'app://desk/index.html' })],
    ['a destroyed frame', { senderFrame: null }],
    ['the dev server when not in development', frame('http://localhost:5173/')],
  ])('refuses a call from %s without reaching the router', async (_who, event) => {
    const { router, calls } = testRouter();
    const refused = vi.fn();
    bindRouter(ipcMain as never, router, { trusted: {}, target: () => null, onRefused: refused });
    const result = await call('listings:setPrice', event, { listing_id: 'L1', price: 250 });
    expect(result).toMatchObject({ ok: false, error: { kind: UNTRUSTED_SENDER } });
    expect(calls).toEqual([]);
    expect(refused).toHaveBeenCalledOnce();
  });

  it('accepts the dev server in development', async () => {
    const { router } = testRouter();
    bindRouter(ipcMain as never, router, { trusted: { devServerUrl: 'http://localhost:5173' }, target: () => null });
    expect(await call('listings:setPrice', frame('http://localhost:5173/'), { listing_id: 'L1', price: 1 })).toMatchObject({ ok: true });
  });

  it('returns a bad payload\'s refusal naming the field', async () => {
    const { router, calls } = testRouter();
    bindRouter(ipcMain as never, router, { trusted: {}, target: () => null });
    const result = await call('listings:setPrice', frame('app://desk/'), { listing_id: 'L1', price: 12.5 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', issues: [{ field: 'price' }] } });
    expect(calls).toEqual([]);
  });

  it('pushes router events to the app\'s page only', () => {
    const { router, push } = testRouter();
    const contents = new FakeWebContents();
    let target: FakeWebContents | null = null;
    bindRouter(ipcMain as never, router, { trusted: {}, target: () => target as never });
    push('trades:changed', { count: 1 });
    target = contents;
    push('trades:changed', { count: 2 });
    push('not-in-contract', { leak: true });
    contents.url = 'https://evil.example/';
    push('trades:changed', { count: 3 });
    contents.url = 'app://desk/index.html';
    contents.destroyed = true;
    push('trades:changed', { count: 4 });
    expect(contents.sent).toEqual([['trades:changed', { count: 2 }]]);
  });

  it('takes the bridge\'s router as it is (checked by tsc)', () => {
    expectTypeOf<Router>().toExtend<Parameters<typeof bindRouter>[1]>();
  });

  it('unbinds handlers and events', () => {
    const { router, push } = testRouter();
    const contents = new FakeWebContents();
    const unbind = bindRouter(ipcMain as never, router, { trusted: {}, target: () => contents as never });
    unbind();
    expect(ipcMain.handlers.size).toBe(0);
    push('trades:changed', {});
    expect(contents.sent).toEqual([]);
  });
});

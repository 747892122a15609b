import { describe, expect, it, vi } from 'vitest';
import { createRouter, type EmitEvent, type Handlers } from '../../src-main/ipc/router.ts';
import { ApiError } from '../../src-main/core/api/errors.ts';
import { CHANNEL_NAMES } from '../../src-shared/contract.ts';

const settings = {
  stamp: 1,
  mode: 'sandbox' as const,
  serviceUrl: 'https://market.example',
  heartbeatEnabled: true,
  heartbeatIntervalMinutes: 5,
  tradePollSeconds: 60,
  notificationsEnabled: true,
  startAtLogin: false,
  youngAccountDays: 30,
  theme: 'system' as const,
  refuseUnautomatedPosts: true,
  autoUpdate: true,
};

/** A router over a few real handlers; the rest are absent on purpose. */
function routerWith(handlers: Partial<Handlers>, connectEvents?: (emit: EmitEvent) => void) {
  const onUnexpected = vi.fn();
  const router = createRouter(handlers as Handlers, { checkOutputs: true, connectEvents, onUnexpected });
  return { router, onUnexpected };
}

describe('IPC router', () => {
  it('lists every contract channel', () => {
    const { router } = routerWith({});
    expect(router.channels).toEqual(CHANNEL_NAMES);
    expect(router.channels).toContain('drafts:apply');
  });

  it('refuses a channel outside the contract', async () => {
    const { router } = routerWith({});
    const result = await router.invoke('fs:readFile', { path: '/etc/passwd' });
    expect(result).toEqual({ ok: false, error: { kind: 'invalid', message: 'Unknown channel "fs:readFile".' } });
  });

  it('refuses a bad payload naming the field, before the handler runs', async () => {
    const handler = vi.fn(() => settings);
    const { router } = routerWith({ 'settings:update': handler });
    const result = await router.invoke('settings:update', { heartbeatIntervalMinutes: 12 });
    expect(handler).not.toHaveBeenCalled();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid');
    expect(result.error.issues?.[0]?.field).toBe('heartbeatIntervalMinutes');
    expect(result.error.message).toContain('settings:update: heartbeatIntervalMinutes');
  });

  it('refuses unknown fields rather than passing them on', async () => {
    const handler = vi.fn(() => settings);
    const { router } = routerWith({ 'settings:update': handler });
    const result = await router.invoke('settings:update', { theme: 'dark', __proto__x: 1 });
    expect(result.ok).toBe(false);
    expect(handler).not.toHaveBeenCalled();
  });

  it('passes the parsed input to the handler and returns its output', async () => {
    const handler = vi.fn((patch: { theme?: string }) => ({ ...settings, ...patch }));
    const { router } = routerWith({ 'settings:update': handler as Handlers['settings:update'] });
    const result = await router.invoke('settings:update', { theme: 'dark' });
    expect(handler).toHaveBeenCalledWith({ theme: 'dark' });
    expect(result).toEqual({ ok: true, value: { ...settings, theme: 'dark' } });
  });

  it('keeps the kind of an ApiError and hides unexpected errors', async () => {
    const { router, onUnexpected } = routerWith({
      'balance:refresh': () => {
        throw new ApiError('rate_limited', 'get_balance: rate limited', { endpoint: 'get_balance', retryAfterMs: 42_000 });
      },
      'balance:get': () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const limited = await router.invoke('balance:refresh', {});
    expect(limited).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfterMs: 42_000 } });
    const broken = await router.invoke('balance:get', {});
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    expect(broken.error.kind).toBe('internal');
    expect(broken.error.message).not.toContain('undefined');
    expect(onUnexpected).toHaveBeenCalledOnce();
  });

  it('refuses an output that does not match the contract', async () => {
    const { router, onUnexpected } = routerWith({
      'settings:get': () => ({ ...settings, heartbeatIntervalMinutes: 'five' }) as never,
    });
    const result = await router.invoke('settings:get', {});
    expect(result).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(onUnexpected).toHaveBeenCalledOnce();
  });

  it('forwards valid events and drops malformed ones', () => {
    let emit: EmitEvent = () => undefined;
    const { router, onUnexpected } = routerWith({}, (e) => {
      emit = e;
    });
    const seen: Array<[string, unknown]> = [];
    const unsubscribe = router.subscribe((event, payload) => seen.push([event, payload]));
    emit('drafts:changed', { stamp: 1, draftId: 'd1' });
    emit('drafts:changed', { stamp: 2, draftId: 7 } as never);
    unsubscribe();
    emit('drafts:changed', { stamp: 3, draftId: 'd2' });
    expect(seen).toEqual([['drafts:changed', { stamp: 1, draftId: 'd1' }]]);
    expect(onUnexpected).toHaveBeenCalledOnce();
  });
});

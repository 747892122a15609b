import { describe, expect, it, vi } from 'vitest';
import { createRouter, type EmitEvent, type Handlers } from '../../src-main/ipc/router.ts';
import { ApiError } from '../../src-main/core/api/errors.ts';
import { DomainError } from '../../src-main/core/errors.ts';
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
  guideDismissed: true,
  priceGuard: { maxDropPercent: 30, floorCents: null, maxRiseMultiple: 10 },
  csvFormat: 'comma' as const,
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

  it('refuses a 1 MiB typed array with one issue, not a million (the 86 MB reply)', async () => {
    const handler = vi.fn();
    const { router } = routerWith({ 'drafts:addChanges': handler });
    for (const input of [new Uint8Array(1024 * 1024), { draftId: 'd', changes: new Float64Array(131_072) }]) {
      const result = await router.invoke('drafts:addChanges', input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe('invalid');
      expect(result.error.issues).toHaveLength(1);
      expect(result.error.message).toMatch(/must be plain data .*not a (Uint8|Float64)Array of 1048576 bytes/);
      expect(JSON.stringify(result).length).toBeLessThan(1_000);
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('keeps any refusal to 20 issues and a few kB, and says how many more there were', async () => {
    const { router } = routerWith({});
    const unknownKeys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}\u0000${'x'.repeat(500)}`, i]));
    const manyBad = { changes: Array.from({ length: 100_000 }, () => ({ kind: 'listing.create', asset_id: 1, price: 'x', promoted: 7 })) };
    const fewBad = { changes: Array.from({ length: 30 }, () => ({ kind: 'listing.create', asset_id: 1, price: 'x', promoted: 7 })) };
    for (const input of [unknownKeys, manyBad, fewBad]) {
      const result = await router.invoke('drafts:addChanges', input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe('invalid');
      expect(result.error.issues?.length).toBeGreaterThan(0);
      expect(result.error.issues?.length).toBeLessThanOrEqual(20);
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(16 * 1024);
      expect(JSON.stringify(result)).not.toMatch(/\\u0000/);
    }
    const few = await router.invoke('drafts:addChanges', fewBad);
    // 30 changes with 3 problems each: 20 listed, 70 counted.
    expect(few).toMatchObject({ ok: false, error: { moreIssues: 70, message: expect.stringMatching(/^drafts:addChanges: changes\.0\.\w+: .* \(and 89 more\)$/) } });
  });

  it('stops reading a large invalid payload at its first problem instead of checking every element', async () => {
    const { router } = routerWith({});
    let reads = 0;
    const change = (i: number) => {
      const c: Record<string, unknown> = { asset_id: String(i), price: 'x', promoted: 0 };
      // Counts how often anything reads this change's kind: the outline check once, the schema as far as it goes.
      Object.defineProperty(c, 'kind', { enumerable: true, get: () => ((reads += 1), 'listing.create') });
      return c;
    };
    const result = await router.invoke('drafts:addChanges', { draftId: 'd', changes: Array.from({ length: 100_000 }, (_, i) => change(i)) });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringMatching(/^drafts:addChanges: changes\.0\.price: .*checking stopped there\)$/) } });
    expect(reads).toBeGreaterThanOrEqual(100_000);
    expect(reads).toBeLessThan(100_100);
  });

  it('logs an unexpected failure as a short line without control characters (not 10 MB of input)', async () => {
    const hostile = `\u001b[2J\r\n${'x'.repeat(10 * 1024 * 1024)}\u202e`;
    const { router, onUnexpected } = routerWith({
      // A failure whose message carries what some input held: 10 MB with terminal controls.
      'drafts:review': () => {
        throw new Error(`no draft ${hostile}`, { cause: new Error(`because ${hostile}`) });
      },
    });
    const result = await router.invoke('drafts:review', { draftId: 'd1' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(onUnexpected).toHaveBeenCalledOnce();
    const [where, logged] = onUnexpected.mock.calls[0] as [string, Error];
    expect(where).toBe('drafts:review');
    const text = String(logged.stack);
    expect(text.length).toBeLessThan(8_000);
    expect(text.split('\n')[0]).toMatch(/^Error: no draft \uFFFD\[2J\uFFFD\uFFFDx+… \(\d+ more characters\)$/);
    expect(text).toMatch(/\n {4}at /);
    expect(text).toMatch(/caused by Error: because/);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
  });

  it('refuses an unknown channel named with 1 MB of control characters in a short reply', async () => {
    const { router } = routerWith({});
    const result = await router.invoke(`\u001b]0;x\u0007${'y'.repeat(1024 * 1024)}`, {});
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result).length).toBeLessThan(1_000);
    expect(JSON.stringify(result)).not.toMatch(/\\u001b|\\u0007/);
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

describe('refusals the trader can act on', () => {
  it('carries invalid by default and the trader’s other kinds when a handler names one', async () => {
    const { router } = routerWith({
      'apply:pause': ({ jobId }) => {
        throw new DomainError('not_found', `No apply is running with job ${jobId}.`);
      },
      'apply:resume': () => {
        throw new DomainError('invalid', 'Automation is not active.');
      },
    });
    expect(await router.invoke('apply:pause', { jobId: 'j1' })).toEqual({ ok: false, error: { kind: 'not_found', message: 'No apply is running with job j1.' } });
    expect(await router.invoke('apply:resume', { jobId: 'j1' })).toEqual({ ok: false, error: { kind: 'invalid', message: 'Automation is not active.' } });
  });
});

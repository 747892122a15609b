import { describe, expect, it } from 'vitest';
import { call } from '../support/router-call.ts';
import { until } from '../support/until.ts';
import { closedPort } from '../support/loopback-server.ts';
import { alertDeskFixture } from '../core/desk/alert-desk.ts';

/**
 * Settings → Alerts through the router, as the window asks: a webhook's URL
 * and signing secret go in once and into the keychain, each under an account
 * of its own; every reply shows the host and the last four characters only;
 * bad input is refused saying what, without echoing the URL; "Send a test"
 * says what the receiver answered.
 */

const open = alertDeskFixture();
const TOKEN = 'Zq3xT0kenPart-9f8e7d6c5b4a39281706ab';
const PATH = `/api/webhooks/1187/${TOKEN}`;
const SECRET = 'relay-secret-7f3a9c2e11b0';
const ALL = { trades: true, automation: true, apply: true };

describe('the alerts channels', () => {
  it('keeps the URL and the secret in the keychain and answers with the host and last four characters only', async () => {
    const d = await open({ scale: 60 });
    const url = `${d.receiver.origin}${PATH}`;
    const view = await call(d.router, 'alerts:add', { format: 'signed', name: 'Phone relay', url, secret: SECRET, alerts: ALL });
    const [hook] = view.webhooks;
    expect(hook).toEqual({ id: expect.any(String), format: 'signed', name: 'Phone relay', host: new URL(url).host, last4: '06ab', alerts: ALL, last: null, queued: 0 });
    expect(d.keychain.entries.get(`webhook:default:${hook?.id}`)).toBe(url);
    expect(d.keychain.entries.get(`webhook-secret:default:${hook?.id}`)).toBe(SECRET);
    const listed = await call(d.router, 'alerts:list', {});
    expect(JSON.stringify(listed)).not.toContain(TOKEN.slice(0, 12));

    const changed = await call(d.router, 'alerts:change', { id: hook?.id ?? '', alerts: { trades: true, automation: false, apply: false } });
    expect(changed.webhooks[0]?.alerts).toEqual({ trades: true, automation: false, apply: false });
    await until('the change pushed', () => d.transcript().some((l) => l.includes('"event":"alerts:changed"') && l.includes('"automation":false')));

    const removed = await call(d.router, 'alerts:remove', { id: hook?.id ?? '' });
    expect(removed.webhooks).toEqual([]);
    expect([...d.keychain.entries.keys()].filter((k) => k.startsWith('webhook'))).toEqual([]);
    expect(d.transcript().filter((l) => l.includes(TOKEN) || l.includes(SECRET))).toEqual([]);
  });

  it('refuses what cannot be a webhook, saying what, and stores nothing', async () => {
    const d = await open({ scale: 60 });
    const refusal = async (input: Record<string, unknown>) => {
      const result = await d.router.invoke('alerts:add', { format: 'discord', name: 'Hook', alerts: ALL, ...input });
      if (result.ok) throw new Error('accepted');
      return result.error;
    };
    const plain = await refusal({ url: `http://hooks.example${PATH}` });
    expect(plain).toMatchObject({ kind: 'invalid', message: expect.stringContaining('must use https:// (plain http:// is allowed for 127.0.0.0/8, ::1 and localhost only)') });
    expect(plain.message).not.toContain(TOKEN);
    expect(await refusal({ url: `ftp://hooks.example${PATH}` })).toMatchObject({ message: expect.stringContaining('must use https://') });
    expect(await refusal({ url: `https://hooks.example${PATH}`, format: 'signed' })).toMatchObject({ message: expect.stringContaining('needs its signing secret') });
    expect(await refusal({ url: `https://hooks.example${PATH}`, format: 'signed', secret: 'short' })).toMatchObject({ message: expect.stringContaining('at least 16 characters') });
    expect([...d.keychain.entries.keys()]).toEqual(['api-key:default']);
    expect((await call(d.router, 'alerts:list', {})).webhooks).toEqual([]);
  });

  it('refuses to add a webhook where no keychain can keep its token', async () => {
    const d = await open({ scale: 60 });
    const state = d.keychain.state;
    d.keychain.state = async () => 'locked';
    const result = await d.router.invoke('alerts:add', { format: 'discord', name: 'Hook', url: `https://discord.com${PATH}`, alerts: ALL });
    expect(result).toMatchObject({ ok: false, error: { kind: 'keychain_unavailable', message: expect.stringContaining('keychain is locked') } });
    d.keychain.state = state;
    expect((await call(d.router, 'alerts:list', {})).webhooks).toEqual([]);
  });

  it('sends a test and says what the receiver answered, nothing of the URL in it', async () => {
    const d = await open({ scale: 60 });
    const add = async (url: string) => (await call(d.router, 'alerts:add', { format: 'discord', name: 'Hook', url, alerts: ALL })).webhooks.at(-1)?.id ?? '';
    const good = await add(`${d.receiver.origin}${PATH}`);
    expect(await call(d.router, 'alerts:test', { id: good })).toMatchObject({ ok: true, status: 204, words: 'The receiver answered 204 No Content' });
    const test = JSON.parse(d.receiver.requests[0]?.body ?? '{}') as { embeds: Array<{ title: string }> };
    expect(test.embeds[0]?.title).toBe('A test alert from Marketplace Desk');

    // A receiver that echoes the URL it was sent to: what it said is shown, the token is not.
    d.receiver.answer({ status: 404, body: { message: `Unknown Webhook ${d.receiver.origin}${PATH}`, code: 10015 } });
    const refused = await call(d.router, 'alerts:test', { id: good });
    expect(refused).toMatchObject({ ok: false, status: 404, words: 'The receiver answered 404 Not Found: Unknown Webhook ••••' });
    d.receiver.answer({ status: 429, body: { retry_after: 2.2 } });
    expect(await call(d.router, 'alerts:test', { id: good })).toMatchObject({ ok: false, status: 429, words: 'The receiver answered 429 Too Many Requests and asked the desk to wait 3 s' });

    const dead = await add(`http://127.0.0.1:${await closedPort()}${PATH}`);
    expect(await call(d.router, 'alerts:test', { id: dead })).toMatchObject({ ok: false, status: null, words: 'Nothing answered: nothing answers at that address (ECONNREFUSED)' });
    const view = await call(d.router, 'alerts:list', {});
    expect(view.webhooks.map((w) => w.last?.words)).toEqual(['Test: The receiver answered 429 Too Many Requests and asked the desk to wait 3 s', 'Test: Nothing answered: nothing answers at that address (ECONNREFUSED)']);
    expect(d.transcript().filter((l) => l.includes(TOKEN))).toEqual([]);
    expect((await d.router.invoke('alerts:test', { id: 'no-such-webhook' }))).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });
});

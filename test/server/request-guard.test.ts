import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRequestGuard, hostName, securityHeaders } from '../../src-main/main-thread/server/request-guard.ts';
import { contentSecurityPolicy } from '../../src-main/core/shell/csp.ts';

const request = (headers: Record<string, string>, remoteAddress = '127.0.0.1') => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;
const guard = createRequestGuard({ host: '127.0.0.1', port: 8790, tls: false, trustedProxies: ['10.0.0.2'], allowedHosts: ['Desk.Example.LAN'] });

describe('the request guard', () => {
  it('reads a Host header\'s name, and nothing malformed', () => {
    expect(hostName('localhost:8790')).toBe('localhost');
    expect(hostName('[::1]:8790')).toBe('::1');
    expect(hostName('Desk.Example.LAN.')).toBe('desk.example.lan');
    for (const bad of [undefined, '', 'a b', 'user@host', 'host/path', 'x'.repeat(400)]) expect(hostName(bad), String(bad)).toBeNull();
  });

  it('answers to loopback names, the address it listens on and the names it was given, nothing else', () => {
    for (const host of ['localhost:8790', '127.0.0.1:8790', '[::1]:8790', 'desk.example.lan', 'DESK.example.lan:443']) expect(guard.hostAllowed(request({ host })), host).toBe(true);
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io:8790', '192.168.1.2:8790']) expect(guard.hostAllowed(request({ host })), host).toBe(false);
    expect(guard.hostAllowed(request({}))).toBe(false);
  });

  it('takes only the desk\'s own origin, by scheme and host exactly', () => {
    const own = { host: '127.0.0.1:8790' };
    expect(guard.originAllowed(request({ ...own, origin: 'http://127.0.0.1:8790' }), true)).toBe(true);
    for (const origin of ['http://evil.example', 'https://127.0.0.1:8790', 'http://127.0.0.1:8791', 'http://127.0.0.1:8790.evil.example', 'null', 'not a url']) {
      expect(guard.originAllowed(request({ ...own, origin }), true), origin).toBe(false);
    }
    expect(guard.originAllowed(request(own), true)).toBe(false);
    expect(guard.originAllowed(request(own), false)).toBe(true);
  });

  it('believes X-Forwarded-For and -Proto from the named proxy alone, and only the address the proxy added', () => {
    const proxied = request({ 'x-forwarded-for': '1.2.3.4, 203.0.113.5', 'x-forwarded-proto': 'https' }, '10.0.0.2');
    expect(guard.clientAddress(proxied)).toBe('203.0.113.5');
    expect(guard.secure(proxied)).toBe(true);
    const direct = request({ 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' }, '::ffff:192.168.1.9');
    expect(guard.clientAddress(direct)).toBe('192.168.1.9');
    expect(guard.secure(direct)).toBe(false);
    expect(guard.clientAddress(request({ 'x-forwarded-for': 'not-an-address' }, '10.0.0.2'))).toBe('10.0.0.2');
  });

  it('sends the desktop window\'s CSP and the rest of the security headers, HSTS over HTTPS only', () => {
    expect(securityHeaders(false)).toMatchObject({ 'content-security-policy': contentSecurityPolicy(), 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' });
    expect(securityHeaders(false)['strict-transport-security']).toBeUndefined();
    expect(securityHeaders(true)['strict-transport-security']).toBe('max-age=31536000');
  });
});

import { describe, expect, it } from 'vitest';
import { webhookAdd } from '../../src-shared/alerts.ts';
import { serviceUrlProblem, webhookUrlProblem } from '../../src-shared/field-rules.ts';

/**
 * A webhook's address follows the service URL's rule (HTTPS; plain HTTP on
 * this computer alone, for a local relay and the tests), but may carry a
 * query (Discord's `?thread_id=`); the reason never echoes the URL, which
 * holds the receiver's token.
 */
const TOKEN = 'Zq3xT0kenPart-9f8e7d6c5b4a39281706ab';

describe('the webhook URL rule', () => {
  it.each([
    `http://hooks.example/api/webhooks/1/${TOKEN}`, `ftp://127.0.0.1/${TOKEN}`, `https://user:pw@discord.com/api/webhooks/1/${TOKEN}`,
    `https://discord.com/api/webhooks/1/${TOKEN}#x`, 'javascript:alert(1)', `https://discord.com/${'a'.repeat(2_001)}`,
  ])('refuses %s without echoing it', (url) => {
    const problem = webhookUrlProblem(url);
    expect(problem).not.toBeNull();
    expect(problem).not.toContain(TOKEN);
    expect(webhookAdd.safeParse({ format: 'discord', name: 'Hook', url, alerts: { trades: true, automation: true, apply: true } }).success).toBe(false);
  });

  it.each([`https://discord.com/api/webhooks/1/${TOKEN}`, `https://discord.com/api/webhooks/1/${TOKEN}?thread_id=42`, 'http://127.0.0.1:8080/hook', 'http://localhost:3000/x', 'http://[::1]:9000/'])(
    'accepts %s', (url) => {
      expect(webhookUrlProblem(url)).toBeNull();
    },
  );

  it('leaves the service URL’s rule as it was: no query there', () => {
    expect(serviceUrlProblem('https://market.example/?x=1')).toBe('must not carry a query string or fragment');
    expect(serviceUrlProblem('https://market.example/#x')).toBe('must not carry a query string or fragment');
  });
});

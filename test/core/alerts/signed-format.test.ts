import { describe, expect, it } from 'vitest';
import type { AlertEnvelope } from '../../../src-main/core/alerts/alert.ts';
import { tradeAlerts } from '../../../src-main/core/alerts/alert-watch.ts';
import { signatureHeaders, signedBody } from '../../../src-main/core/alerts/signed-format.ts';
import { verifyDeskSignature } from '../../support/webhook-receiver.ts';
import { item, waitingTrade } from './alert-fixtures.ts';

/**
 * Signed JSON alerts, checked by the receiver's recipe of docs/alerts.md
 * (written in test/support/webhook-receiver.ts from that page, not from the
 * desk's code): the signature verifies with the shared secret, and with
 * nothing else; a changed body or an old timestamp is refused.
 */

const SECRET = 'relay-secret-7f3a9c2e11b0';
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const [trade] = tradeAlerts([waitingTrade('61', [item('Strange Team Captain', 1, 2_500)], 12)]);
const envelope: AlertEnvelope = { id: 'f4b5', at: NOW, sandbox: false, alert: trade ?? { type: 'test' } };

describe('a signed JSON alert', () => {
  const body = signedBody(envelope);
  const headers = signatureHeaders(SECRET, body, NOW);
  const nowSec = Math.floor(NOW / 1000);

  it('verifies with the documented recipe and the shared secret, and fails with a wrong one', () => {
    expect(headers['x-desk-timestamp']).toBe(String(nowSec));
    expect(headers['x-desk-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyDeskSignature({ secret: SECRET, headers, body, nowSec })).toBe('ok');
    expect(verifyDeskSignature({ secret: `${SECRET}x`, headers, body, nowSec })).toBe('bad signature');
    expect(verifyDeskSignature({ secret: SECRET, headers, body: body.replace('2500', '25000'), nowSec })).toBe('bad signature');
  });

  it('is refused by a receiver when its timestamp is more than 5 minutes off: a recorded alert cannot be played again', () => {
    expect(verifyDeskSignature({ secret: SECRET, headers, body, nowSec: nowSec + 299 })).toBe('ok');
    expect(verifyDeskSignature({ secret: SECRET, headers, body, nowSec: nowSec + 301 })).toBe('stale');
    // Replaying with a fresh timestamp needs a new signature, which needs the secret.
    expect(verifyDeskSignature({ secret: SECRET, headers: { ...headers, 'x-desk-timestamp': String(nowSec + 600) }, body, nowSec: nowSec + 600 })).toBe('bad signature');
  });

  it('says what happened in plain fields: the items named, the total, the partner account’s age', () => {
    expect(JSON.parse(body)).toEqual({
      id: 'f4b5',
      type: 'trade.needs_action',
      at: '2026-01-02T03:04:05.000Z',
      sandbox: false,
      title: 'Accept a trade: you sold an item',
      text: 'Strange Team Captain · $12.50 · partner account young: check before trading',
      data: {
        trades: [{
          tradeType: 'market', tradeId: '61', status: 'Action Required', action: 'Accept a trade: you sold an item', totalCents: 1_250, total: '$12.50',
          items: [{ name: 'Strange Team Captain', quantity: 1, priceCents: 2_500 }], partnerAccountAgeDays: 12, youngPartner: true, verificationCode: null,
        }],
        more: 0,
      },
    });
  });
});

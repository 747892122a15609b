import { createHmac } from '../node-crypto.ts';
import { formatCents } from '../../../src-shared/money.ts';
import { alertSummary, alertTitle, type Alert, type AlertEnvelope } from './alert.ts';

/**
 * An alert as signed JSON, for a receiver of the trader's own (a relay to a
 * phone, a chat bot, a script). The body says what happened in plain fields;
 * the headers say when it was signed and prove it came from a desk holding
 * the shared secret (docs/alerts.md gives the receiver's recipe):
 *
 *   X-Desk-Timestamp: <Unix seconds when this try was signed>
 *   X-Desk-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>
 *   X-Desk-Delivery:  <the alert's id: the same on every try of it>
 *   X-Desk-Event:     <the alert's type>
 *
 * The timestamp is signed with the body, so a receiver that refuses old ones
 * (more than 5 minutes off its clock) cannot be made to act on a recorded
 * alert again; each try is signed afresh, so a retry after a wait is not old.
 */

export const SIGNATURE_HEADER = 'x-desk-signature';
export const TIMESTAMP_HEADER = 'x-desk-timestamp';
export const DELIVERY_HEADER = 'x-desk-delivery';
export const EVENT_HEADER = 'x-desk-event';

/** Trades listed in one body: a flood of trades is said as a count beyond it. */
const MAX_TRADES = 50;

function dataOf(alert: Alert): Record<string, unknown> {
  switch (alert.type) {
    case 'trade.needs_action':
      return {
        trades: alert.trades.slice(0, MAX_TRADES).map((t) => ({
          tradeType: t.tradeType,
          tradeId: t.tradeId,
          status: t.status,
          action: t.action,
          totalCents: t.totalCents,
          total: formatCents(t.totalCents),
          items: t.items.map((i) => ({ name: i.name, quantity: i.quantity, priceCents: i.priceCents })),
          partnerAccountAgeDays: t.partnerAgeDays,
          youngPartner: t.youngPartner,
          verificationCode: t.verificationCode,
        })),
        more: Math.max(0, alert.trades.length - MAX_TRADES),
      };
    case 'automation.lapsed':
      return { lastBeatAt: alert.lastBeatAt === null ? null : new Date(alert.lastBeatAt).toISOString(), why: alert.why };
    case 'automation.restored':
      return { lapsedForSeconds: Math.round(alert.lapsedForMs / 1000) };
    case 'apply.ended':
      return {
        draft: alert.draftName, state: alert.state, total: alert.total, done: alert.done, refused: alert.failed, unknown: alert.unknown, stopReason: alert.stopReason,
      };
    case 'reprice.waiting':
      return { waiting: alert.waiting, why: alert.why, draftId: alert.draftId, draft: alert.draftName, applied: alert.applied };
    case 'test':
      return {};
  }
}

/** The body: the same bytes are signed and sent. */
export function signedBody(envelope: AlertEnvelope): string {
  return JSON.stringify({
    id: envelope.id,
    type: envelope.alert.type,
    at: new Date(envelope.at).toISOString(),
    sandbox: envelope.sandbox,
    title: alertTitle(envelope.alert),
    text: alertSummary(envelope.alert),
    data: dataOf(envelope.alert),
  });
}

/** The signature of `body` at `nowMs` (wall clock: the receiver compares it with its own). */
export function signatureHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `sha256=${signature}` };
}

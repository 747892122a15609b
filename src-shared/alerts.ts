import { z } from 'zod';
import { webhookUrlProblem } from './field-rules.ts';
import { stamp } from './ledger.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Alerts off the desktop: webhooks the desk posts to when something needs
 * the trader (a trade to accept, automation lapsed, an apply ended), in
 * Discord's format or as JSON signed with HMAC-SHA256. A webhook's URL
 * carries its receiver's token and the signing secret is the trader's: both
 * go to main once, into the keychain; the renderer only ever sees the host
 * and the URL's last four characters.
 */

/** What a webhook may be told: trades needing action, automation lapsed and restored, applies that ended. */
export const ALERT_KINDS = ['trades', 'automation', 'apply'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Which alerts a webhook takes. */
export const alertChoice = lazySchema(() => z.strictObject({ trades: z.boolean(), automation: z.boolean(), apply: z.boolean() }));
export type AlertChoice = z.infer<typeof alertChoice>;

/** Discord's webhook (an embed per alert), or JSON signed with a secret the receiver shares. */
export const webhookFormat = z.enum(['discord', 'signed']);
export type WebhookFormat = z.infer<typeof webhookFormat>;

/** More than a trader needs (a channel per bot, a relay); each is posted to on its own queue. */
export const WEBHOOKS_MAX = 10;
export const WEBHOOK_NAME_MAX = 60;
/** An HMAC key shorter than this is guessable offline from one signed alert. */
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;

export const webhookId = z.string().regex(/^[a-z0-9-]{1,40}$/, { error: 'is not a webhook of this desk' });

/** A webhook's address, by the service URL's rule (webhookUrlProblem says it); the reason never echoes the URL. */
export const webhookUrl = z.string({ error: 'must be a URL' }).superRefine((value, ctx) => {
  const problem = webhookUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `The webhook URL ${problem}` });
});

/** Printable ASCII without spaces: a secret pasted with a space or a line break would never verify. */
export const webhookSecret = lazySchema(() => z
  .string()
  .min(WEBHOOK_SECRET_MIN, { error: `The signing secret must have at least ${WEBHOOK_SECRET_MIN} characters` })
  .max(WEBHOOK_SECRET_MAX, { error: `The signing secret must have at most ${WEBHOOK_SECRET_MAX} characters` })
  .regex(/^[\x21-\x7e]+$/, { error: 'The signing secret must not contain spaces or unusual characters' }));

export const webhookName = lazySchema(() => z.string().trim().min(1, { error: 'Give the webhook a name' }).max(WEBHOOK_NAME_MAX));

/** Adds a webhook: a signed one needs its secret, a Discord one takes none. */
export const webhookAdd = lazySchema(() => z
  .strictObject({ format: webhookFormat, name: webhookName, url: webhookUrl, secret: webhookSecret.optional(), alerts: alertChoice })
  .refine((w) => (w.format === 'signed') === (w.secret !== undefined), {
    error: 'A signed webhook needs its signing secret; a Discord webhook takes none',
    path: ['secret'],
  }));
export type WebhookAdd = z.infer<typeof webhookAdd>;

export const webhookChange = lazySchema(() => z.strictObject({ id: webhookId, name: webhookName.optional(), alerts: alertChoice.optional() }));
export const webhookRef = z.strictObject({ id: webhookId });

/** What the last alert or test to a webhook came to, in the trader's words. */
export const deliveryView = lazySchema(() => z.object({
  /** Wall-clock ms. */
  at: z.number(),
  ok: z.boolean(),
  words: z.string(),
}));
export type DeliveryView = z.infer<typeof deliveryView>;

export const webhookView = lazySchema(() => z.object({
  id: webhookId,
  format: webhookFormat,
  name: z.string(),
  /** The receiver's host: the URL's path (its token) is never shown. */
  host: z.string(),
  /** The URL's last four characters, as the key's. */
  last4: z.string().max(4),
  alerts: alertChoice,
  last: deliveryView.nullable(),
  /** Alerts waiting to be sent (a receiver that is down, or asked the desk to wait). */
  queued: z.number().int().nonnegative(),
}));
export type WebhookView = z.infer<typeof webhookView>;

export const alertsView = lazySchema(() => z.object({
  stamp,
  webhooks: z.array(webhookView),
  keychainAvailable: z.boolean(),
}));
export type AlertsView = z.infer<typeof alertsView>;

/** "Send a test": what the receiver answered, at once (a test is sent once, not retried). */
export const webhookTestResult = lazySchema(() => z.object({
  id: webhookId,
  ok: z.boolean(),
  /** The HTTP status; null when nothing answered. */
  status: z.number().int().nullable(),
  words: z.string(),
  ms: z.number().nonnegative(),
}));
export type WebhookTestResult = z.infer<typeof webhookTestResult>;

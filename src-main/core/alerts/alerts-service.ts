import { randomUUID } from '../node-crypto.ts';
import { WEBHOOKS_MAX, type AlertChoice, type AlertsView, type DeliveryView, type WebhookAdd, type WebhookTestResult } from '../../../src-shared/alerts.ts';
import type { ApiErrorKind } from '../../../src-shared/errors.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { SecretStore } from '../secrets.ts';
import type { AlertWebhooks, StoredWebhook } from '../settings/alert-webhooks.ts';
import { alertTitle, kindOf, type Alert, type AlertEnvelope } from './alert.ts';
import { createAlertSender, type PreparedPost, type SenderOptions, type SendNews } from './alert-sender.ts';
import { watchForAlerts, type WatchedWorkspace } from './alert-watch.ts';
import { discordMessage } from './discord-format.ts';
import { DELIVERY_HEADER, EVENT_HEADER, signatureHeaders, signedBody } from './signed-format.ts';
import { loggedAddress, shownAddress, withoutSecrets } from './webhook-address.ts';
import { createWebhookSecretStore } from './webhook-secrets.ts';

/**
 * Alerts off the desktop: the trader's webhooks (added, changed, removed,
 * tested from Settings → Alerts) and the alerts the shown workspace raises,
 * each queued for every webhook that takes its kind. Lives as long as the
 * desk (its webhooks are the profile's); follows each workspace it shows.
 */
export interface AlertsService {
  view(): Promise<Omit<AlertsView, 'stamp'>>;
  /** Stores the URL and secret in the keychain; refuses (`keychain_unavailable`) where none can keep them. */
  add(input: WebhookAdd): Promise<void>;
  change(input: { id: string; name?: string | undefined; alerts?: AlertChoice | undefined }): void;
  remove(id: string): Promise<void>;
  /** Posts a test once, now: what the receiver answered. */
  test(id: string): Promise<WebhookTestResult>;
  /** The workspace shown from now on raises the alerts (the last one's no longer do). */
  follow(ws: WatchedWorkspace & { readonly sandbox: boolean }): void;
  on<K extends keyof AlertsEvents>(event: K, listener: (payload: AlertsEvents[K]) => void): Unsubscribe;
  close(): Promise<void>;
}

export type AlertsEvents = {
  /** The webhooks, a queue or a last delivery changed. */
  changed: undefined;
  /** What became of an alert, for the log: the address masked, never the URL. */
  news: AlertNews;
};

export interface AlertNews {
  readonly what: SendNews['what'];
  readonly webhook: string;
  /** Scheme, host and a masked path (webhook-address.ts). */
  readonly address: string;
  readonly alert: Alert['type'];
  readonly tries?: number;
  readonly waitMs?: number;
  readonly why?: string;
}

/** A given-up alert, for the activity log. */
export interface GiveUpEntry {
  readonly address: string;
  readonly alert: string;
  readonly tries: number;
  readonly why: string;
  /** As the service's failures are kinded: no answer, a 5xx, a 429, another refusal. */
  readonly kind: Extract<ApiErrorKind, 'network' | 'server' | 'rate_limited' | 'rejected'>;
}

const kindOfStatus = (status: number | null): GiveUpEntry['kind'] =>
  status === null ? 'network' : status === 429 ? 'rate_limited' : status >= 500 || status === 408 ? 'server' : 'rejected';

export interface AlertsDeps {
  readonly webhooks: AlertWebhooks;
  readonly secrets: SecretStore;
  readonly profile: string;
  readonly clock: Clock;
  readonly version: string;
  /** Says an alert given up in the shown workspace's activity log. */
  recordGiveUp(entry: GiveUpEntry): void;
  /** Timings of the sender (tests shorten them). */
  readonly sending?: Pick<SenderOptions, 'timeoutMs' | 'backoffMs' | 'maxTries' | 'queueMax' | 'random'>;
}

export function createAlertsService(deps: AlertsDeps): AlertsService {
  const { webhooks, clock } = deps;
  const keychain = createWebhookSecretStore(deps.secrets, deps.profile);
  const emitter = createEmitter<AlertsEvents>();
  const changed = () => emitter.emit('changed', undefined);
  const lastOf = new Map<string, DeliveryView>();
  let sandbox = false;
  let unfollow: Unsubscribe = () => undefined;

  async function prepare(id: string, envelope: AlertEnvelope): Promise<PreparedPost | null> {
    const stored = webhooks.get(id);
    const secrets = stored ? await keychain.read(id) : null;
    if (!stored || !secrets) return null;
    const url = new URL(secrets.url);
    const base = { 'content-type': 'application/json', 'user-agent': `MarketplaceDesk/${deps.version} (alerts)` };
    const clean = (text: string) => withoutSecrets(text, secrets.url, secrets.secret === null ? [] : [secrets.secret]);
    const request = { origin: url.origin, path: `${url.pathname}${url.search}`, clean };
    if (stored.format === 'discord') return { ...request, headers: base, body: JSON.stringify(discordMessage(envelope)) };
    const body = signedBody(envelope);
    const signed = secrets.secret === null ? {} : signatureHeaders(secrets.secret, body, clock.now());
    return { ...request, body, headers: { ...base, ...signed, [DELIVERY_HEADER]: envelope.id, [EVENT_HEADER]: envelope.alert.type } };
  }

  const sender = createAlertSender({ clock, prepare, ...deps.sending });
  const noteLast = (id: string, ok: boolean, words: string) => lastOf.set(id, { at: clock.now(), ok, words });

  // A queue's length is shown beside its webhook.
  sender.on('queue', changed);
  sender.on('news', (item) => {
    const stored = webhooks.get(item.webhookId);
    if (!stored) return;
    const title = alertTitle(item.envelope.alert);
    const { address } = stored;
    const base = { what: item.what, webhook: stored.name, address, alert: item.envelope.alert.type };
    if (item.what === 'delivered') {
      noteLast(stored.id, true, `${title}: delivered, the receiver ${item.outcome.words}`);
      emitter.emit('news', { ...base, tries: item.tries });
    } else if (item.what === 'retrying') {
      emitter.emit('news', { ...base, tries: item.tries, waitMs: item.waitMs, why: item.outcome.words });
    } else {
      const why = item.what === 'dropped' ? 'too many alerts were waiting for this webhook, so the oldest was dropped' : item.why;
      const tries = item.what === 'gave_up' ? item.tries : 0;
      const kind = kindOfStatus(item.what === 'gave_up' ? item.status : null);
      noteLast(stored.id, false, `${title}: not delivered${tries > 0 ? ` after ${tries} ${tries === 1 ? 'try' : 'tries'}` : ''}: ${why}`);
      emitter.emit('news', { ...base, tries, why });
      deps.recordGiveUp({ address, alert: title, tries, why, kind });
    }
    changed();
  });

  function raise(alert: Alert): void {
    const kind = kindOf(alert);
    const targets = webhooks.list().filter((w) => kind !== null && w.alerts[kind]);
    if (targets.length === 0) return;
    const envelope: AlertEnvelope = { id: randomUUID(), at: clock.now(), sandbox, alert };
    for (const w of targets) sender.enqueue(w.id, envelope);
  }

  const found = (id: string): StoredWebhook => {
    const stored = webhooks.get(id);
    if (!stored) throw new DomainError('not_found', 'That webhook is no longer set up: it may have been removed');
    return stored;
  };

  return {
    async view() {
      const keychainAvailable = (await deps.secrets.state()) === 'available';
      return {
        keychainAvailable,
        webhooks: webhooks.list().map((w) => ({
          id: w.id, format: w.format, name: w.name, host: w.host, last4: w.last4, alerts: w.alerts,
          last: lastOf.get(w.id) ?? null, queued: sender.queued(w.id),
        })),
      };
    },
    async add(input) {
      if (webhooks.list().length >= WEBHOOKS_MAX) throw new DomainError('conflict', `The desk takes ${WEBHOOKS_MAX} webhooks at most: remove one first`);
      const state = await deps.secrets.state();
      if (state !== 'available') {
        throw new DomainError('keychain_unavailable', state === 'locked'
          ? 'The system keychain is locked, so the webhook was not added: its address holds a token, kept only in the keychain. Unlock it and try again.'
          : 'No system keychain is available, so the webhook was not added: its address holds a token, kept only in the keychain.');
      }
      const id = randomUUID();
      await keychain.store(id, { url: input.url, secret: input.secret ?? null });
      try {
        webhooks.add({
          id, format: input.format, name: input.name, ...shownAddress(input.url), address: loggedAddress(input.url), alerts: input.alerts, addedAt: clock.now(),
        });
      } catch (error) {
        await keychain.remove(id).catch(() => undefined);
        throw error;
      }
      changed();
    },
    change(input) {
      webhooks.change(input.id, { ...(input.name === undefined ? {} : { name: input.name }), ...(input.alerts ? { alerts: input.alerts } : {}) });
      changed();
    },
    async remove(id) {
      found(id);
      webhooks.remove(id);
      lastOf.delete(id);
      await sender.forget(id);
      await keychain.remove(id);
      changed();
    },
    async test(id) {
      const stored = found(id);
      const outcome = await sender.sendOnce(id, { id: randomUUID(), at: clock.now(), sandbox, alert: { type: 'test' } });
      if (outcome === null) throw new DomainError('keychain_unavailable', 'The webhook’s address could not be read from the system keychain: unlock it, or add the webhook again');
      const ok = outcome.kind === 'delivered';
      const wait = outcome.kind === 'rate_limited' ? ` and asked the desk to wait ${Math.ceil(outcome.waitMs / 1000)} s` : '';
      const words = outcome.status === null ? `Nothing answered: ${outcome.words}` : `The receiver ${outcome.words}${wait}`;
      noteLast(stored.id, ok, `Test: ${words}`);
      changed();
      return { id, ok, status: outcome.status, words, ms: outcome.ms };
    },
    follow(ws) {
      unfollow();
      sandbox = ws.sandbox;
      unfollow = watchForAlerts(ws, clock, raise);
    },
    on: (event, listener) => emitter.on(event, listener),
    async close() {
      unfollow();
      await sender.close();
    },
  };
}

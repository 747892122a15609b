import { z } from 'zod';
import { alertChoice, webhookFormat, webhookId, type AlertChoice } from '../../../src-shared/alerts.ts';
import { DomainError } from '../errors.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The trader's alert webhooks as the profile keeps them: what each is called,
 * its format, which alerts it takes, and what may be shown of its address
 * (host, last four characters). Never the URL or the signing secret: those
 * are in the keychain (core/alerts/webhook-secrets.ts). Read leniently, as
 * the settings are: an entry that no longer fits is left out, the rest kept.
 */

const STORAGE_KEY = 'alerts.webhooks';

export const storedWebhook = lazySchema(() => z.object({
  id: webhookId,
  format: webhookFormat,
  name: z.string().min(1).max(200),
  host: z.string().max(300),
  last4: z.string().max(4),
  /** Scheme, host and a masked path, for log lines: `https://discord.com/…abcd`. */
  address: z.string().max(400),
  alerts: alertChoice,
  /** Wall-clock ms, for ordering. */
  addedAt: z.number(),
}));
export type StoredWebhook = z.infer<typeof storedWebhook>;

export interface AlertWebhooks {
  list(): readonly StoredWebhook[];
  get(id: string): StoredWebhook | null;
  add(webhook: StoredWebhook): void;
  /** Renames it or changes which alerts it takes; `not_found` when there is no such webhook. */
  change(id: string, patch: { name?: string; alerts?: AlertChoice }): StoredWebhook;
  /** False when there was none. */
  remove(id: string): boolean;
}

export function createAlertWebhooks(repo: Pick<SettingsRepo, 'get' | 'set'>): AlertWebhooks {
  const stored = repo.get(STORAGE_KEY, z.array(z.unknown()), []);
  let webhooks: StoredWebhook[] = stored.flatMap((entry) => {
    const parsed = storedWebhook.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  const save = (next: StoredWebhook[]) => {
    repo.set(STORAGE_KEY, next);
    webhooks = next;
  };
  const find = (id: string) => webhooks.find((w) => w.id === id) ?? null;
  return {
    list: () => webhooks,
    get: find,
    add: (webhook) => save([...webhooks, storedWebhook.parse(webhook)]),
    change(id, patch) {
      const found = find(id);
      if (!found) throw new DomainError('not_found', 'That webhook is no longer set up: it may have been removed');
      const next = storedWebhook.parse({ ...found, ...(patch.name === undefined ? {} : { name: patch.name }), ...(patch.alerts ? { alerts: patch.alerts } : {}) });
      save(webhooks.map((w) => (w.id === id ? next : w)));
      return next;
    },
    remove(id) {
      if (!find(id)) return false;
      save(webhooks.filter((w) => w.id !== id));
      return true;
    },
  };
}

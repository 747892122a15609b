import { randomUUID } from '../node-crypto.ts';
import { createAlertsService, type AlertsDeps, type AlertsService, type GiveUpEntry } from '../alerts/alerts-service.ts';
import type { Clock } from '../clock.ts';
import type { SecretStore } from '../secrets.ts';
import { createAlertWebhooks } from '../settings/alert-webhooks.ts';
import { ALERT_ENTRY } from '../store/activity-repo.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import type { Workspace } from './workspace.ts';

/**
 * The desk's alerts: the webhooks are the profile's (kept with its settings,
 * their addresses in the keychain), the alerts the shown workspace's, and an
 * alert given up is said in that workspace's activity log beside its requests.
 */
export function createDeskAlerts(deps: {
  home: Pick<SettingsRepo, 'get' | 'set'>;
  secrets: SecretStore;
  profile: string;
  clock: Clock;
  version: string;
  current: () => Pick<Workspace, 'repos'>;
  sending?: AlertsDeps['sending'];
}): AlertsService {
  return createAlertsService({
    webhooks: createAlertWebhooks(deps.home),
    secrets: deps.secrets,
    profile: deps.profile,
    clock: deps.clock,
    version: deps.version,
    recordGiveUp: (entry) => recordGiveUp(deps.current(), entry),
    ...(deps.sending ? { sending: deps.sending } : {}),
  });
}

/** The workspace shown from now on raises the alerts. */
export function followWithAlerts(alerts: Pick<AlertsService, 'follow'>, ws: Pick<Workspace, 'mode' | 'trades' | 'heartbeat' | 'apply' | 'repos' | 'pricing'>): void {
  alerts.follow({
    trades: ws.trades,
    reprices: ws.pricing.schedule,
    heartbeat: ws.heartbeat,
    apply: ws.apply,
    // The one draft's row: listing every draft counts each one's changes, ~36 ms with a million-change draft.
    draftName: (draftId) => ws.repos.drafts.get(draftId)?.name ?? null,
    sandbox: ws.mode === 'sandbox',
  });
}

function recordGiveUp(ws: Pick<Workspace, 'repos'>, entry: GiveUpEntry): void {
  const batchId = `alert:${randomUUID()}`;
  try {
    ws.repos.activity.recordSent({ batchId, endpoint: ALERT_ENTRY, account: null, targets: [entry.address], itemCount: 1 });
    ws.repos.activity.recordOutcome(batchId, 'failed', { kind: entry.kind, message: `${entry.alert}: not delivered${entry.tries > 0 ? ` after ${entry.tries} ${entry.tries === 1 ? 'try' : 'tries'}` : ''}: ${entry.why}` });
  } catch {
    // A closed or full store: the log line (desk-log.ts) still says it.
  }
}

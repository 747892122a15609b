import type {
  AccountsView,
  HeartbeatView,
  SchedulerView,
  AppStatus,
} from '../../src-shared/contract.ts';
import type { AccountsSnapshot } from '../core/accounts/accounts-service.ts';
import type { DeskStatus } from '../core/desk/desk.ts';
import type { HeartbeatState } from '../core/heartbeat/index.ts';
import type { Scheduler } from '../core/scheduler/index.ts';
import type { AccountRow } from '../core/store/accounts-repo.ts';

/**
 * Core state → the view models of the contract. Kept apart from the handlers
 * so events and replies show the same thing the same way.
 */

export const appStatusView = (s: DeskStatus): AppStatus => ({ ...s });

export const heartbeatView = (s: HeartbeatState): HeartbeatView => ({
  status: s.status,
  refreshAt: s.refreshAt,
  lastBeatAt: s.lastBeatAt,
  nextBeatAt: s.nextBeatAt,
  accounts: [...s.accounts],
  lastError: s.lastError,
  clockOffsetMs: s.clockOffsetMs,
});

export function schedulerView(scheduler: Pick<Scheduler, 'state' | 'usage'>): SchedulerView {
  const { blocked, pauses } = scheduler.state;
  const { used, limit } = scheduler.usage();
  const latest = pauses.reduce<number | null>((max, p) => (max === null || p.until > max ? p.until : max), null);
  return { blocked, used, limit, pausedUntil: latest };
}

const accountView = (row: AccountRow) => ({
  id64: row.account_id,
  role: row.kind,
  tradeUrl: row.trade_url,
  automated: row.kind === 'main' ? true : row.automated,
});

export const accountsView = (s: AccountsSnapshot): AccountsView => ({
  main: s.main ? accountView(s.main) : null,
  linked: s.linked.map(accountView),
  readAt: s.readAt,
  read: { ...s.read },
});

import { reopensWorkspace, type Desk } from '../../core/desk/desk.ts';
import type { Handlers } from '../router.ts';
import { accountsView, appStatusView, heartbeatView, schedulerView } from '../views.ts';
import type { Platform } from './platform.ts';
import { Refused } from './refused.ts';
import { TRADE_OFFER_HOST } from '../../core/shell/external-links.ts';
import type { SettingsPatch } from '../../core/settings/settings.ts';

type EngineChannels =
  | 'app:status' | 'key:status' | 'key:set' | 'key:remove' | 'settings:get' | 'settings:update'
  | 'heartbeat:state' | 'heartbeat:beatNow' | 'automation:setEnabled' | 'scheduler:state'
  | 'balance:get' | 'balance:refresh' | 'trades:list' | 'trades:checkNow' | 'trades:openOffer'
  | 'accounts:list' | 'accounts:refresh' | 'accounts:setTradeUrl' | 'accounts:setAutomated';

/** The trade offer page of a pending trade; trade IDs are the platform's trade offer IDs. */
export const tradeOfferUrl = (tradeId: string) => `https://${TRADE_OFFER_HOST}/tradeoffer/${tradeId}/`;

/**
 * Reopening the workspace would cut a running apply off between batches, so
 * such a change waits until the apply ends (or is cancelled).
 */
function refuseReopenDuringApply(desk: Desk, patch: SettingsPatch): void {
  if (reopensWorkspace(patch, desk.settings.get()) && desk.workspace().apply.handles().length > 0) {
    throw new Refused('An apply is running. Change this setting when it has finished, or cancel it first.');
  }
}

/** Handlers for the live state: key, settings, heartbeat, budget, balance, trades, accounts. */
export function engineHandlers(desk: Desk, platform: Platform): Pick<Handlers, EngineChannels> {
  const ws = () => desk.workspace();
  return {
    'app:status': () => appStatusView(desk.status()),
    'key:status': () => desk.keys.status(),
    'key:set': ({ key }) => desk.keys.set(key),
    'key:remove': () => desk.keys.remove(),
    'settings:get': () => desk.settings.get(),
    'settings:update': (patch) => {
      refuseReopenDuringApply(desk, patch);
      return desk.settings.update(patch);
    },
    'heartbeat:state': () => heartbeatView(ws().heartbeat.state),
    'heartbeat:beatNow': async () => {
      await ws().heartbeat.beatNow();
      return heartbeatView(ws().heartbeat.state);
    },
    'automation:setEnabled': ({ enabled }) => {
      desk.settings.update({ heartbeatEnabled: enabled });
      return heartbeatView(ws().heartbeat.state);
    },
    'scheduler:state': () => schedulerView(ws().scheduler),
    'balance:get': () => ws().trades.balance(),
    'balance:refresh': () => ws().trades.refreshBalance(),
    'trades:list': () => [...ws().trades.trades()],
    'trades:checkNow': async () => {
      await ws().trades.checkNow();
      return [...ws().trades.trades()];
    },
    'trades:openOffer': async ({ tradeId }) => {
      await platform.openLink(tradeOfferUrl(tradeId));
      return { ok: true as const };
    },
    'accounts:list': () => accountsView(ws().accounts.snapshot()),
    'accounts:refresh': async () => accountsView(await ws().accounts.refresh()),
    'accounts:setTradeUrl': async ({ tradeUrl, account }) => accountsView(await ws().accounts.setTradeUrl(tradeUrl, account)),
    'accounts:setAutomated': ({ id64, automated }) => accountsView(ws().accounts.setAutomated(id64, automated)),
  };
}

import type { Desk } from '../../core/desk/desk.ts';
import { TRADE_OFFER_HOST } from '../../core/shell/external-links.ts';
import type { Handlers } from '../router.ts';
import type { DeskViews } from '../views.ts';
import type { Platform } from './platform.ts';

type EngineChannels =
  | 'app:status' | 'key:status' | 'key:set' | 'key:remove' | 'settings:get' | 'settings:update'
  | 'heartbeat:state' | 'heartbeat:beatNow' | 'automation:setEnabled' | 'scheduler:state'
  | 'balance:get' | 'balance:refresh' | 'trades:list' | 'trades:checkNow' | 'trades:openOffer'
  | 'accounts:list' | 'accounts:refresh' | 'accounts:setTradeUrl' | 'accounts:setAutomated';

/** The trade offer page of a pending trade; trade IDs are the platform's trade offer IDs. */
export const tradeOfferUrl = (tradeId: string) => `https://${TRADE_OFFER_HOST}/tradeoffer/${tradeId}/`;

/**
 * Handlers for the live state: key, settings, heartbeat, budget, balance,
 * trades, accounts. Every reply is the area's view as it stands after the
 * action, stamped, so it agrees with the event the action caused.
 */
export function engineHandlers(desk: Desk, views: DeskViews, platform: Platform): Pick<Handlers, EngineChannels> {
  const ws = () => desk.workspace();
  return {
    'app:status': () => views.app(),
    'key:status': () => views.key(),
    'key:set': async ({ key }) => {
      await desk.keys.set(key);
      return views.key();
    },
    'key:remove': async () => {
      await desk.keys.remove();
      return views.key();
    },
    'settings:get': () => views.settings(),
    'settings:update': async (patch) => {
      await desk.updateSettings(patch);
      return views.settings();
    },
    'heartbeat:state': () => views.heartbeat(),
    'heartbeat:beatNow': async () => {
      await ws().heartbeat.beatNow();
      return views.heartbeat();
    },
    'automation:setEnabled': async ({ enabled }) => {
      await desk.updateSettings({ heartbeatEnabled: enabled });
      return views.heartbeat();
    },
    'scheduler:state': () => views.scheduler(),
    'balance:get': () => views.balance(),
    'balance:refresh': async () => {
      await ws().trades.refreshBalance();
      return views.balance();
    },
    'trades:list': () => views.trades(),
    'trades:checkNow': async () => {
      await ws().trades.checkNow();
      return views.trades();
    },
    'trades:openOffer': async ({ tradeId }) => {
      await platform.openLink(tradeOfferUrl(tradeId));
      return { ok: true as const };
    },
    'accounts:list': () => views.accounts(),
    'accounts:refresh': async () => {
      await ws().accounts.refresh();
      return views.accounts();
    },
    'accounts:setTradeUrl': async ({ tradeUrl, account }) => {
      await ws().accounts.setTradeUrl(tradeUrl, account);
      return views.accounts();
    },
    'accounts:setAutomated': ({ id64, automated }) => {
      ws().accounts.setAutomated(id64, automated);
      return views.accounts();
    },
  };
}

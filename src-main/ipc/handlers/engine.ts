import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { Heartbeat } from '../../core/heartbeat/index.ts';
import type { KeyService } from '../../core/key/key-service.ts';
import type { SettingsPatch } from '../../core/settings/settings.ts';
import type { TradeWatcher } from '../../core/trades/trade-watcher.ts';
import { partnerPageUrl, TRADE_OFFER_HOST } from '../../core/shell/external-links.ts';
import type { Handlers } from '../router.ts';
import type { DeskViews } from '../views.ts';
import type { Platform } from './platform.ts';

type EngineChannels =
  | 'app:status' | 'key:status' | 'key:set' | 'key:remove' | 'settings:get' | 'settings:update'
  | 'heartbeat:state' | 'heartbeat:beatNow' | 'automation:setEnabled' | 'scheduler:state'
  | 'balance:get' | 'balance:refresh' | 'trades:list' | 'trades:checkNow' | 'trades:openOffer' | 'trades:openPartnerPage'
  | 'accounts:list' | 'accounts:refresh' | 'accounts:setTradeUrl' | 'accounts:setAutomated';

/** The trade offer page of a pending trade; trade IDs are the platform's trade offer IDs. */
export const tradeOfferUrl = (tradeId: string) => `https://${TRADE_OFFER_HOST}/tradeoffer/${tradeId}/`;

/**
 * Handlers for the live state: key, settings, heartbeat, budget, balance,
 * trades, accounts. Every reply is the area's view as it stands after the
 * action, stamped, so it agrees with the event the action caused.
 */
export interface EngineChannelServices {
  readonly keys: Pick<KeyService, 'set' | 'remove'>;
  updateSettings(patch: SettingsPatch): Promise<unknown>;
  heartbeat(): Pick<Heartbeat, 'beatNow'>;
  trades(): Pick<TradeWatcher, 'refreshBalance' | 'checkNow'>;
  accounts(): Pick<AccountsService, 'refresh' | 'setTradeUrl' | 'setAutomated'>;
}

export function engineHandlers(services: EngineChannelServices, views: DeskViews, platform: Platform): Pick<Handlers, EngineChannels> {
  return {
    'app:status': () => views.app(),
    'key:status': () => views.key(),
    'key:set': async ({ key }) => {
      await services.keys.set(key);
      return views.key();
    },
    'key:remove': async () => {
      await services.keys.remove();
      return views.key();
    },
    'settings:get': () => views.settings(),
    'settings:update': async (patch) => {
      await services.updateSettings(patch);
      return views.settings();
    },
    'heartbeat:state': () => views.heartbeat(),
    'heartbeat:beatNow': async () => {
      await services.heartbeat().beatNow();
      return views.heartbeat();
    },
    'automation:setEnabled': async ({ enabled }) => {
      await services.updateSettings({ heartbeatEnabled: enabled });
      return views.heartbeat();
    },
    'scheduler:state': () => views.scheduler(),
    'balance:get': () => views.balance(),
    'balance:refresh': async () => {
      await services.trades().refreshBalance();
      return views.balance();
    },
    'trades:list': () => views.trades(),
    'trades:checkNow': async () => {
      await services.trades().checkNow();
      return views.trades();
    },
    'trades:openOffer': async ({ tradeId }) => {
      await platform.openLink(tradeOfferUrl(tradeId));
      return { ok: true as const };
    },
    'trades:openPartnerPage': async ({ id64, site }) => {
      await platform.openLink(partnerPageUrl(site, id64));
      return { ok: true as const };
    },
    'accounts:list': () => views.accounts(),
    'accounts:refresh': async () => {
      await services.accounts().refresh();
      return views.accounts();
    },
    'accounts:setTradeUrl': async ({ tradeUrl, account }) => {
      await services.accounts().setTradeUrl(tradeUrl, account);
      return views.accounts();
    },
    'accounts:setAutomated': ({ id64, automated }) => {
      services.accounts().setAutomated(id64, automated);
      return views.accounts();
    },
  };
}

import type { AlertsService } from '../../core/alerts/alerts-service.ts';
import type { Handlers } from '../router.ts';
import type { DeskViews } from '../views.ts';

type AlertChannels = 'alerts:list' | 'alerts:add' | 'alerts:change' | 'alerts:remove' | 'alerts:test';

/**
 * Settings → Alerts: the webhooks, as host and last four characters, after
 * each change; and a test's answer. The URL and the signing secret come in
 * once (`alerts:add`) and go to the keychain: no reply carries them.
 */
export function alertHandlers(services: { readonly alerts: Pick<AlertsService, 'add' | 'change' | 'remove' | 'test'> }, views: DeskViews): Pick<Handlers, AlertChannels> {
  const { alerts } = services;
  return {
    'alerts:list': () => views.alerts(),
    'alerts:add': async (input) => {
      await alerts.add(input);
      return views.alerts();
    },
    'alerts:change': async (input) => {
      alerts.change(input);
      return views.alerts();
    },
    'alerts:remove': async ({ id }) => {
      await alerts.remove(id);
      return views.alerts();
    },
    'alerts:test': ({ id }) => alerts.test(id),
  };
}

import type { AppLog } from '../core/shell/app-log.ts';
import type { Router } from './router.ts';

/**
 * Each call's channel, outcome and duration at debug level, failures other
 * than the trader's own at info: enough to follow a bug report. Inputs are
 * never logged (one of them carries the key on its way to the keychain).
 */
export function withCallLog(router: Router, log: AppLog): Router {
  return {
    ...router,
    async invoke(channel, input) {
      const started = performance.now();
      const result = await router.invoke(channel, input);
      const ms = Math.round(performance.now() - started);
      if (result.ok) log.debug('call', { channel, ms });
      else log.info('call failed', { channel, ms, kind: result.error.kind, message: result.error.message });
      return result;
    },
  };
}

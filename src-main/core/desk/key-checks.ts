import type { Clock } from '../clock.ts';
import type { KeyService } from '../key/key-service.ts';
import { createKeyProbes } from '../key/key-probe.ts';
import { createKeyTester, workspaceKeyTarget, type KeyTester } from '../key/key-test.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { Workspace } from './workspace.ts';

/**
 * The desk's "Test key": in live mode it asks through the
 * workspace's own reads; in sandbox mode through a probe of the live URL,
 * whose rate headers the live workspace inherits when the desk goes live.
 * A result about another URL is dropped when the URL changes.
 */
export interface KeyChecks {
  readonly tester: KeyTester;
  /** The desk is about to show `next`: a live one learns the slots the probe used. */
  opening(next: Workspace): void;
  /** The desk shows `current` now: in live mode the probe is no longer needed. */
  opened(current: Workspace): Promise<void>;
  close(): Promise<void>;
}

export function createKeyChecks(deps: {
  keys: KeyService;
  clock: Clock;
  settings: Pick<SettingsService, 'get' | 'on'>;
  current: () => Workspace;
  /** Why the shown workspace's service could not be reached, when it could not. */
  unreachableWhy: () => string | null;
}): KeyChecks {
  const { keys, clock } = deps;
  const probes = createKeyProbes({ keys, clock });
  const tester = createKeyTester({
    keys,
    clock,
    target: (since) => {
      const ws = deps.current();
      return ws.mode === 'live'
        ? workspaceKeyTarget({ serviceUrl: ws.baseUrl, accounts: ws.accounts, trades: ws.trades, clock, since, unreachableWhy: deps.unreachableWhy })
        : probes.target(deps.settings.get().serviceUrl, since);
    },
  });
  const offSettings = deps.settings.on('changed', (next, previous) => {
    if (next.serviceUrl !== previous.serviceUrl) tester.forget();
  });
  return {
    tester,
    opening(next) {
      if (next.mode === 'live') probes.handOver(next.baseUrl, next);
    },
    async opened(current) {
      if (current.mode === 'live') await probes.close();
    },
    async close() {
      offSettings();
      tester.dispose();
      await probes.close();
    },
  };
}

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The systemd unit the README tells server owners to install: systemd's own
 * checker finds nothing wrong with it (an unknown key, a missing binary, a
 * bad value all fail), it carries the hardening it promises, and its
 * exposure by `systemd-analyze security` is "OK" (below 2.0 of 10). systemd
 * exists on Linux only: elsewhere (the Windows and macOS runners) the unit
 * is not checked.
 */
const UNIT = fileURLToPath(new URL('../../build/systemd/marketplace-desk.service', import.meta.url));

describe.skipIf(process.platform !== 'linux')('the systemd unit (build/systemd/marketplace-desk.service, checked on Linux)', () => {
  it('passes systemd-analyze verify with no warning', () => {
    const run = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(run.error, 'systemd-analyze is missing: .ci/run installs Debian\'s systemd package').toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('carries the hardening, runs the server and loads the key as a credential', () => {
    const unit = readFileSync(UNIT, 'utf8');
    const set = (key: string) => new RegExp(`^${key}=`, 'm').test(unit);
    for (const key of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'ProtectHome=yes', 'PrivateTmp=yes', 'DynamicUser=yes', 'StateDirectory=marketplace-desk', 'UMask=0077', 'CapabilityBoundingSet=']) {
      expect(unit, key).toMatch(new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
    expect(unit).toMatch(/^LoadCredential=api-key:\/etc\/marketplace-desk\/api-key$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/env marketplace-desk serve --host 127\.0\.0\.1 /m);
    expect(set('MemoryDenyWriteExecute')).toBe(false);
  });

  it('is rated OK by systemd-analyze security', () => {
    const run = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', UNIT], { encoding: 'utf8' });
    const exposure = /Overall exposure level for marketplace-desk\.service: ([\d.]+)/.exec(run.stdout)?.[1];
    console.log(`systemd exposure of marketplace-desk.service: ${exposure ?? '?'} (0 safest, 10 exposed)`);
    expect(Number(exposure)).toBeLessThan(2);
  });
});

import { DomainError } from '../errors.ts';
import { settingsPatchSchema, type Settings, type SettingsPatch } from '../settings/settings.ts';
import { serviceUrlProblem } from '../../../src-shared/fields.ts';
import type { Workspace } from './workspace.ts';

/**
 * A change of the trader's settings as the desk takes it: checked first
 * (nothing changes when a value is refused), then either applied to the
 * running workspace or, when it names another service, by opening that
 * service's workspace (desk.ts).
 */

/** The change checked, or a kinded error that names the setting. */
export function checkedSettingsPatch(patch: SettingsPatch): SettingsPatch {
  const parsed = settingsPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError('invalid', `The setting ${issue?.path.join('.') || 'change'} is not valid: ${issue?.message ?? 'check the value'}`);
  }
  const checked = parsed.data;
  if (checked.serviceUrl !== undefined) {
    const problem = serviceUrlProblem(checked.serviceUrl);
    if (problem !== null) throw new DomainError('invalid', `The service URL ${problem}`);
  }
  return checked;
}

/**
 * Whether a change means another service (and for sandbox, another ledger
 * file): the mode, or the live URL while live. In sandbox mode the URL is
 * only where going live (and testing the key) will go: the simulator stays.
 */
export function changesService(next: SettingsPatch, previous: Settings): boolean {
  const mode = next.mode ?? previous.mode;
  if (mode !== previous.mode) return true;
  return mode === 'live' && next.serviceUrl !== undefined && next.serviceUrl !== previous.serviceUrl;
}

/** A change that keeps the service, applied to the running workspace: the heartbeat on or off, the timings. */
export function applyLive(ws: Pick<Workspace, 'heartbeat' | 'retime'>, next: Settings, previous: Settings): void {
  if (next.heartbeatEnabled !== previous.heartbeatEnabled) {
    if (next.heartbeatEnabled) ws.heartbeat.start();
    else ws.heartbeat.stop();
  }
  ws.retime(next);
}

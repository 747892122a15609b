import { defineStore } from 'pinia';
import type { RecoverInput } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';

/**
 * A profile that could not be opened, and the trader's way on (a backup, an
 * empty profile, another try): asked before the desk is built, since the
 * window shows the recovery screen instead of the desk then.
 */
export const useProfileStore = defineStore('profile', () => {
  /** What keeps the profile from opening; null when it opened (or main could not say). */
  const problem = () => call('profile:problem', {}).then((r) => r.problem, () => null);
  /** Opens the profile by the trader's choice: `opened`, or the problem it still has. Throws DeskError. */
  const recover = (input: RecoverInput) => call('profile:recover', input);
  return { problem, recover };
});

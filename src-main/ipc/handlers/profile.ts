import type { ProfileProblem, RecoverInput } from '../../../src-shared/profile.ts';
import { DomainError } from '../../core/errors.ts';
import type { Handlers } from '../router.ts';

type ProfileHandlers = Pick<Handlers, 'profile:problem' | 'profile:recover'>;

/** The profile channels of a desk that opened: there is no problem, and nothing to recover. */
export function openProfileHandlers(): ProfileHandlers {
  return {
    'profile:problem': () => ({ problem: null }),
    'profile:recover': () => {
      throw new DomainError('conflict', 'The profile is open: there is nothing to recover');
    },
  };
}

/** What the recovery router needs: the problem as it stands, and the choice carried out (opened, or the problem it still has). */
export interface ProfileRecovery {
  problem(): ProfileProblem | null;
  recover(input: RecoverInput): Promise<{ opened: boolean; problem: ProfileProblem | null }>;
}

/** The profile channels while the profile could not be opened: the recovery screen's two calls. */
export function recoveryHandlers(recovery: ProfileRecovery): ProfileHandlers {
  return {
    'profile:problem': () => ({ problem: recovery.problem() }),
    'profile:recover': (input) => recovery.recover(input),
  };
}

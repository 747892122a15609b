import type { RecoveryChannel } from '../../../src-shared/contract.ts';
import type { ProfileProblem, RecoverInput } from '../../../src-shared/profile.ts';
import { recoveryHandlers } from '../handlers/profile.ts';
import { createRouter, type Handlers, type Router, type RouterOptions } from '../router.ts';

/**
 * The bridge while the profile could not be opened: the recovery screen's
 * channels (those the contract marks `duringRecovery`) and nothing else.
 * When the trader's choice opens the profile, `onOpened` gets the desk (the
 * caller serves the desk's own router from then on); a choice made again
 * after that changes nothing.
 */
export interface RecoveryRouterOptions<D> extends Pick<RouterOptions, 'checkOutputs' | 'onUnexpected'> {
  readonly problem: ProfileProblem;
  /** Carries out the trader's choice and opens the profile again: the desk, or the problem it still has. */
  recover(problem: ProfileProblem, input: RecoverInput): Promise<{ readonly desk: D; readonly problem: null } | { readonly desk: null; readonly problem: ProfileProblem }>;
  onOpened(desk: D): void;
}

export function createRecoveryRouter<D>(options: RecoveryRouterOptions<D>): Router {
  let problem: ProfileProblem | null = options.problem;
  // One choice at a time: a second click waits for the first, then finds the profile open.
  let queue: Promise<unknown> = Promise.resolve();
  const recover = async (input: RecoverInput) => {
    if (problem === null) return { opened: true, problem: null };
    const outcome = await options.recover(problem, input);
    if (!outcome.desk) {
      problem = outcome.problem;
      return { opened: false, problem };
    }
    problem = null;
    options.onOpened(outcome.desk);
    return { opened: true, problem: null };
  };
  // The channels the contract marks `duringRecovery`, and no other.
  const handlers: Pick<Handlers, RecoveryChannel> = recoveryHandlers({
    problem: () => problem,
    recover(input) {
      const run = queue.then(() => recover(input));
      queue = run.catch(() => undefined);
      return run;
    },
  });
  return createRouter(handlers, {
    checkOutputs: options.checkOutputs,
    ...(options.onUnexpected ? { onUnexpected: options.onUnexpected } : {}),
  });
}

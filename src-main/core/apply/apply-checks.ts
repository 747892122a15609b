import type { GuardConfirmation } from '../../../src-shared/draft-views.ts';
import { confirmationOf, draftHasFindings, markedCount, type DraftGuard } from '../../../src-shared/price-guard.ts';
import type { HeartbeatStatus } from '../heartbeat/heartbeat.ts';

/**
 * What may turn an apply down before anything is sent, each for a reason the
 * trader can act on.
 */

/** An apply turned down before anything was sent, for a reason the trader can act on. */
export class ApplyRefused extends Error {
  override readonly name = 'ApplyRefused';
  /** The desk is in a state that does not allow this now (see src-shared/errors.ts). */
  readonly kind = 'conflict';
}

/** The trader's option "never put up a listing that would not show as automated", and the heartbeat's status. */
export interface AutomationRule {
  refusePosts(): boolean;
  status(): HeartbeatStatus;
}

/**
 * While the heartbeat is lapsed or off, new listings would show as not
 * automated: when the trader asked for it, an apply is refused before
 * anything is sent. (A run resumed after a crash was started while it was
 * allowed, and goes on.) Without the rule nothing is refused.
 */
export function refuseWhileNotAutomated(automation: AutomationRule | undefined): void {
  if (!automation?.refusePosts()) return;
  const status = automation.status();
  if (status === 'lapsed' || status === 'off') {
    throw new ApplyRefused(
      'Automation is not active, so new listings would show as not automated. Turn automation on and wait for it to show as active, or allow this in Settings.',
    );
  }
}

/** A draft whose price changes the guard marks goes only with a confirmation of exactly those (a stray shortcut gives none). */
export function refuseUnconfirmedPrices(found: DraftGuard, confirmed: GuardConfirmation | undefined): void {
  if (!draftHasFindings(found)) return;
  if (confirmed !== undefined && JSON.stringify(confirmed) === JSON.stringify(confirmationOf(found))) return;
  const { listings, buyOrders, undercuts } = found;
  const marked = markedCount(listings) + markedCount(buyOrders);
  const changes = marked === 0 ? ''
    : `${marked} price ${marked === 1 ? 'change' : 'changes'} the price guard marks (a deep cut, a price under your floor or under cost, or a big rise)`;
  const creates = undercuts.count === 0 ? ''
    : `${undercuts.count} new ${undercuts.count === 1 ? 'listing' : 'listings'} priced far under the item's lowest listing or last sale`;
  throw new ApplyRefused(`This draft holds ${[changes, creates].filter((s) => s !== '').join(' and ')}. Review them, then confirm them to apply.`);
}

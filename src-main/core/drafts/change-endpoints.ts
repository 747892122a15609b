import type { EndpointName } from '../api/endpoints.ts';
import type { Change } from './change.ts';

/**
 * How an apply sends a draft's changes, as far as the review counts it
 * (drafts/review.ts) and the apply plans it (apply/plan-batches.ts): the
 * endpoint that carries each change and the phases the requests run in.
 */

/** 0: delete-alls. 1: everything else. 2: creates that need their own delete done first. */
export type Phase = 0 | 1 | 2;
export const PHASES: readonly Phase[] = [0, 1, 2];

/** The endpoint that carries a change. */
export function endpointOf(change: Pick<Change, 'kind'>): EndpointName {
  switch (change.kind) {
    case 'listing.create': return 'create_listing';
    case 'listing.edit': return 'edit_listing';
    case 'listing.delete': return 'delete_listing';
    case 'listing.deleteAll': return 'delete_all_listings';
    case 'buyOrder.create': return 'create_buy_order';
    case 'buyOrder.edit': return 'edit_buy_order';
    case 'buyOrder.delete': return 'delete_buy_order';
    case 'buyOrder.deleteAll': return 'delete_all_buy_orders';
  }
}

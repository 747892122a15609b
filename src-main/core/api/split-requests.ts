import type { ItemizedEndpoint, ItemOf, RequestOf } from './endpoints.ts';
import type { FieldIssue } from './errors.ts';
import { MAX_ITEMS_PER_REQUEST } from './schemas.ts';
import { invalidRequest, requestIssues } from './validate.ts';

/**
 * Turns any number of items into request inputs of at most 100 items each
 * (the service's limit), so callers never build an oversized request.
 *
 * Every item is validated before anything is returned: one bad item throws
 * ApiError 'invalid' whose issues name the item's index in `items` and the
 * field (`{ item: 3, field: 'items.3.price', … }`), so nothing of a list with
 * a bad item is sent. The shared fields in `rest` (e.g. `multiaccount_proxy`)
 * are copied into every request and validated too. No items → no requests.
 */
export function splitIntoRequests<K extends ItemizedEndpoint>(
  endpoint: K,
  items: readonly ItemOf<K>[],
  rest?: Omit<RequestOf<K>, 'items'>,
): RequestOf<K>[] {
  const requests: RequestOf<K>[] = [];
  const issues: FieldIssue[] = [];
  for (let start = 0; start < items.length; start += MAX_ITEMS_PER_REQUEST) {
    const request = { ...rest, items: items.slice(start, start + MAX_ITEMS_PER_REQUEST) } as RequestOf<K>;
    const found = requestIssues(endpoint, request, start);
    // A bad shared field shows up in every chunk; report it once.
    issues.push(...found.filter((issue) => issue.item !== undefined || start === 0));
    requests.push(request);
  }
  if (issues.length > 0) throw invalidRequest(endpoint, issues);
  return requests;
}

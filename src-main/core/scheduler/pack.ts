import type { EndpointName, ItemizedEndpoint, ItemOf, RequestOf } from '../api/endpoints.ts';
import { splitIntoRequests } from '../api/split-requests.ts';
import type { BatchTask } from './types.ts';

/**
 * Packs items of one endpoint into job tasks of at most 100 items each.
 * Every item is validated first (ApiError 'invalid' naming item and field,
 * nothing packed), so a job never carries a batch the service would refuse
 * for a reason we can know. Task ids are `${idPrefix}:${n}`, n counting from 0.
 */
export function packTasks<K extends ItemizedEndpoint>(
  endpoint: K,
  items: readonly ItemOf<K>[],
  options: { rest?: Omit<RequestOf<K>, 'items'>; idPrefix?: string } = {},
): BatchTask[] {
  const prefix = options.idPrefix ?? endpoint;
  return splitIntoRequests(endpoint, items, options.rest).map((input, n) => ({
    id: `${prefix}:${n}`,
    endpoint,
    input: input as RequestOf<EndpointName>,
    itemCount: (input as { items: readonly unknown[] }).items.length,
  }));
}

import type { InventoryState } from '../../../src-shared/inventory.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { Inventory } from '../../core/inventory/index.ts';
import type { Handlers } from '../router.ts';
import type { Stamps } from '../stamps.ts';

type InventoryChannels =
  | 'inventory:state' | 'inventory:refresh' | 'inventory:page' | 'inventory:keys' | 'inventory:preview' | 'inventory:draft'
  | 'inventory:checkAssets' | 'inventory:draftAssets';

/**
 * Handlers for the inventory picker. Every answer comes from what the store
 * kept: a read of Steam is started, never waited for (its progress comes as
 * `inventory:changed` events).
 */
export interface InventoryChannelServices {
  inventory(): Pick<Inventory, 'reads' | 'queries' | 'drafting'>;
  accounts(): Pick<AccountsService, 'snapshot'>;
}

export function inventoryHandlers(services: InventoryChannelServices, stamps: Stamps): Pick<Handlers, InventoryChannels> {
  const inv = () => services.inventory();
  const main = () => services.accounts().snapshot().main?.account_id ?? null;
  const stateView = (accounts: InventoryState['accounts']): InventoryState => ({
    stamp: stamps.of('inventory'), accounts, facets: inv().queries.facets(),
  });
  return {
    'inventory:state': ({ ensureFresh }) => stateView(ensureFresh === true ? inv().reads.ensureFresh() : inv().reads.state()),
    'inventory:refresh': ({ account }) => stateView(inv().reads.refresh(account === undefined ? undefined : [account])),
    'inventory:page': ({ filter, sort, offset, limit }) => {
      const stamp = stamps.of('inventory');
      return { stamp, offset, ...inv().queries.page(filter, sort, offset, limit) };
    },
    'inventory:keys': ({ filter, sort, offset, limit }) => ({ keys: inv().queries.keys(filter, sort, offset, limit) }),
    'inventory:preview': ({ selection, pricing }) => inv().drafting.preview(selection, pricing),
    'inventory:draft': ({ selection, pricing, extras }) => inv().drafting.draft(selection, pricing, extras),
    'inventory:checkAssets': ({ account, assetIds }) => ({ stamp: stamps.of('inventory'), ...inv().drafting.checkTyped(account ?? main() ?? '', assetIds) }),
    'inventory:draftAssets': ({ account, assetIds, price, game, extras }) =>
      inv().drafting.draftTyped({ account: account ?? main() ?? '', assetIds, price, game, extras }),
  };
}

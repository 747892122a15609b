import { scalePrice } from '../../../src-shared/price-formula.ts';
import { DEFAULT_GAME } from '../../../src-shared/fields.ts';
import type {
  InventoryDraftOutcome, InventoryPricingOutcome, InventorySelection, TypedAssetsCheck, TypedAssetsDraftOutcome,
} from '../../../src-shared/inventory.ts';
import type { inventoryPricing, listingExtras } from '../../../src-shared/inventory.ts';
import type { z } from 'zod';
import type { AddChangesResult } from '../drafts/draft-service.ts';
import type { InventoryReads } from '../store/inventory-reads.ts';
import type { ReferenceReads } from '../store/reference-reads.ts';
import type { PriceGuard } from '../../../src-shared/price-guard.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { undercutTally } from '../drafts/guard-tally.ts';
import { readChangeInputs } from '../drafts/change-inputs.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';
import type { InventoryQueries, PickedItem } from './inventory-query.ts';

/**
 * From picked items to listings in the draft: each item priced by the
 * trader's formula (a fixed price, or × percent of the item's listed price or
 * buy order, rounded to a grid: the bulk edit's own rule), and drafted as a
 * create that carries its SKU, so its name shows from the start. Items that
 * cannot be listed (not tradable, already in the ledger, nothing to price
 * from) are left out with the reason; items priced far under what the same
 * item fetches (its lowest standing listing, its last sale) are marked as
 * the review marks them. Asset IDs typed by hand are checked against the
 * kept inventory first: one that is not there is said, not refused.
 */

type Pricing = z.output<typeof inventoryPricing>;
type Extras = z.output<typeof listingExtras>;

export interface InventoryDrafting {
  preview(selection: InventorySelection, pricing: Pricing): InventoryPricingOutcome;
  draft(selection: InventorySelection, pricing: Pricing, extras: Extras): InventoryDraftOutcome;
  checkTyped(account: string, assetIds: readonly string[]): Omit<TypedAssetsCheck, 'stamp'>;
  draftTyped(input: { account: string; assetIds: readonly string[]; price: number; game: string; extras: Extras }): TypedAssetsDraftOutcome;
}

export interface InventoryDraftingDeps {
  reads: Pick<InventoryReads, 'referencePrices'>;
  /** What a new listing's price is held against (the price guard's undercut). */
  references: Pick<ReferenceReads, 'referencesOf'>;
  /** The trader's price guard; the default without it. */
  guard?: () => PriceGuard;
  queries: InventoryQueries;
  drafts: {
    ensureCurrent(): string;
    addChanges(draftId: string, inputs: readonly ChangeInput[]): AddChangesResult;
  };
  main: () => string | null;
  /** When the account's inventory was read, or why it cannot be relied on (never read, private). */
  readOf: (account: string) => { readAt: number | null; unchecked: string | null };
}

interface Priced {
  readonly item: PickedItem;
  readonly base: number | null;
  readonly price: number;
}

const SAMPLES = 10;

export function createInventoryDrafting(deps: InventoryDraftingDeps): InventoryDrafting {
  const { reads } = deps;

  /** The reference price of each SKU for `from`. */
  function references(from: Pricing['from'], items: readonly PickedItem[]): Map<string, number> {
    if (from === 'fixed') return new Map();
    return reads.referencePrices(from, [...new Set(items.map((i) => i.sku).filter((s) => s !== ''))]);
  }

  function price(items: readonly PickedItem[], pricing: Pricing): { priced: Priced[]; leftOut: Map<string, string[]> } {
    const refs = references(pricing.from, items);
    const priced: Priced[] = [];
    const leftOut = new Map<string, string[]>();
    const leave = (reason: string, item: PickedItem) => {
      const list = leftOut.get(reason);
      if (list) list.push(item.assetId);
      else leftOut.set(reason, [item.assetId]);
    };
    for (const item of items) {
      if (!item.tradable) leave('Steam says it cannot be traded now', item);
      else if (item.listingState !== null) leave('it already has a listing in the ledger (edit that one instead)', item);
      else {
        const base = pricing.from === 'fixed' ? null : refs.get(item.sku) ?? null;
        const value = pricing.from === 'fixed' ? pricing.cents
          : base !== null ? scalePrice(base, pricing.percent, pricing.rounding, pricing.step) : pricing.cents;
        if (value === null) leave(pricing.from === 'listing' ? 'no standing listing of the same item to price from' : 'no buy order for the same item to price from', item);
        else if (value < 1) leave('the formula gives a price below $0.01', item);
        else priced.push({ item, base, price: value });
      }
    }
    return { priced, leftOut };
  }

  function outcome(selected: number, priced: readonly Priced[], leftOut: Map<string, string[]>): InventoryPricingOutcome {
    const prices = priced.map((p) => p.price);
    const undercuts = undercutTally(deps.guard?.() ?? DEFAULT_PRICE_GUARD);
    const named = priced.filter((p) => p.item.sku !== '');
    const refs = named.length === 0 ? new Map() : deps.references.referencesOf([...new Set(named.map((p) => p.item.sku))]);
    for (const p of named) undercuts.add(p.item.assetId, p.item.sku, p.price, refs.get(p.item.sku) ?? []);
    return {
      selected,
      priced: priced.length,
      leftOut: [...leftOut].slice(0, 20).map(([reason, ids]) => ({ reason, count: ids.length, sample: ids.slice(0, 5) })),
      // Examples of the formula at work first, then of the other price.
      samples: [...priced.filter((p) => p.base !== null), ...priced.filter((p) => p.base === null)].slice(0, SAMPLES)
        .map((p) => ({ key: p.item.assetId, name: p.item.name, base: p.base, price: p.price })),
      minPrice: prices.length === 0 ? null : Math.min(...prices),
      maxPrice: prices.length === 0 ? null : Math.max(...prices),
      undercuts: undercuts.result(),
    };
  }

  /** Puts the creates in the current draft; refusals of the draft's rules are named by asset. */
  function add(creates: ReadonlyArray<{ assetId: string; account: string; sku: string; price: number }>, game: string, extras: Extras) {
    const main = deps.main();
    const changes = creates.map((c) => ({
      kind: 'listing.create' as const,
      asset_id: c.assetId,
      price: c.price,
      promoted: extras.promoted,
      game,
      ...(extras.user_note === undefined || extras.user_note === '' ? {} : { user_note: extras.user_note }),
      ...(c.sku === '' ? {} : { sku: c.sku }),
      ...(c.account === main ? {} : { account: c.account }),
    }));
    const draftId = deps.drafts.ensureCurrent();
    // Read with the shared field rules here: the SKUs come from Steam's answers.
    const read = readChangeInputs(changes);
    const result = creates.length === 0 ? { added: 0, errors: [] } : deps.drafts.addChanges(draftId, read.inputs);
    const errors = read.refusals(result.errors).map((e) => ({ assetId: creates[e.index]?.assetId ?? e.target, message: `${e.field} ${e.message}` }));
    const replaced = result.replaced ?? 0;
    return { draftId, added: result.added - replaced, replaced, errors: errors.slice(0, 100), errorCount: errors.length };
  }

  return {
    preview(selection, pricing) {
      const items = deps.queries.picked(selection);
      const { priced, leftOut } = price(items, pricing);
      return outcome(items.length, priced, leftOut);
    },
    draft(selection, pricing, extras) {
      const items = deps.queries.picked(selection);
      const { priced, leftOut } = price(items, pricing);
      const creates = priced.map((p) => ({ assetId: p.item.assetId, account: p.item.account, sku: p.item.sku, price: p.price }));
      return { ...outcome(items.length, priced, leftOut), ...add(creates, DEFAULT_GAME, extras) };
    },
    checkTyped(account, assetIds) {
      const found = deps.queries.find(assetIds);
      const read = deps.readOf(account);
      return {
        account,
        readAt: read.readAt,
        unchecked: read.unchecked,
        rows: assetIds.map((assetId) => {
          const row = found.get(assetId);
          return {
            assetId,
            found: row === undefined ? 'not_found' as const : row.account === account ? 'here' as const : 'other_account' as const,
            account: row?.account ?? null,
            item: row?.item ?? null,
            sku: row?.sku ?? '',
            tradable: row?.tradable ?? null,
            listing: row?.listing ?? null,
            drafted: row?.drafted ?? null,
          };
        }),
      };
    },
    draftTyped({ account, assetIds, price: cents, game, extras }) {
      const found = deps.queries.find(assetIds);
      // The SKU goes with an asset found in this account's inventory: the draft names it at once.
      const creates = assetIds.map((assetId) => {
        const row = found.get(assetId);
        return { assetId, account, sku: row?.account === account ? row.sku : '', price: cents };
      });
      // Never read (or unreadable): nothing can be said to be missing from it.
      const read = deps.readOf(account).readAt !== null;
      const notFound = read ? assetIds.filter((id) => found.get(id)?.account !== account) : [];
      return { ...add(creates, game, extras), notFound: notFound.slice(0, 100), notFoundCount: notFound.length };
    },
  };
}

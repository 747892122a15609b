import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { notFound, quoted } from '../errors.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { SENDABLE, type ChangeInput, type DraftEntry } from './change.ts';
import { buyOrdersToCsv, BUY_ORDER_COLUMNS, readBuyOrdersImport, type AdoptedBuyOrder } from './csv-buy-orders.ts';
import type { ItemNames } from '../items/index.ts';
import { columnOf, type PriceColumn } from './csv-cells.ts';
import { itemLookup, lockedTargets, type ImportContext } from './csv-context.ts';
import { changesToCsv, DRAFT_COLUMNS, readDraftImport } from './csv-draft.ts';
import { byLine, readCsv, type CsvLineError } from './csv-format.ts';
import { LISTING_COLUMNS, listingsToCsv, readListingsImport, type AdoptedListing } from './csv-listings.ts';
import type { DraftService } from './draft-service.ts';
import { ledgerLookup } from './draft-context.ts';

/**
 * CSV export and import of the ledgers and of a draft. An import happens in
 * two steps: `previewImport` reads and checks the whole file (every bad row
 * reported with its line) and stores nothing; `commitImport` applies what the
 * trader accepted. Adoption writes the ledger (listings or buy orders already
 * on the market); everything else goes through the draft service, so its
 * merge rules and field rules are the only ones.
 */
export type CsvKind = 'listings' | 'buyOrders' | 'draft';

export interface CsvImportContext {
  /** The draft that rows become changes of: required for 'draft', and for listings without listing_id. */
  readonly draftId?: string | undefined;
}

export interface CsvPreview {
  readonly token: string;
  readonly kind: CsvKind;
  /** Rows that would be imported if the trader accepts now. */
  readonly validCount: number;
  /** One per refused line, in line order. */
  readonly errors: readonly CsvLineError[];
}

export interface CsvCommitResult {
  readonly imported: number;
  /** Rows refused at commit because the ledger or draft changed since the preview. */
  readonly errors: readonly CsvLineError[];
}

export interface CsvService {
  exportListings(): string;
  exportBuyOrders(): string;
  /** The changes the next apply would send (pending and failed): deletes first, then the rest in draft order. */
  exportDraft(draftId: string): string;
  previewImport(kind: CsvKind, csvText: string, context?: CsvImportContext): CsvPreview;
  /** Applies a preview's rows, checked again against the current ledger and draft. Throws for an unknown or expired token. */
  commitImport(token: string): CsvCommitResult;
}

export interface CsvServiceDeps {
  store: Store;
  repos: Repos;
  drafts: DraftService;
  /** Expiry of previews; default the store's clock. */
  clock?: Clock;
  /** How long a preview can be accepted; default 15 minutes. */
  previewTtlMs?: number;
  /** Previews kept at once (each holds its file's text); the oldest go first. Default 4. */
  maxPreviews?: number;
  /** Item names for the `name` column (export writes it, import resolves it); without them files carry SKUs only. */
  names?: Pick<ItemNames, 'name' | 'skuForName' | 'knownNames'> | null;
}

interface Pending {
  readonly kind: CsvKind;
  readonly text: string;
  readonly draftId: string | undefined;
  readonly expiresAt: number;
}

interface Prepared {
  readonly listings: readonly AdoptedListing[];
  readonly buyOrders: readonly AdoptedBuyOrder[];
  readonly changes: readonly { readonly line: number; readonly input: ChangeInput }[];
  readonly errors: readonly CsvLineError[];
  /** The column the file's prices are in, for refusals the draft words by field. */
  readonly priceColumn: PriceColumn;
}

export function createCsvService(deps: CsvServiceDeps): CsvService {
  const { store, repos, drafts } = deps;
  const clock = deps.clock ?? store.clock;
  const ttl = deps.previewTtlMs ?? 15 * 60_000;
  const max = deps.maxPreviews ?? 4;
  const ledger = ledgerLookup(repos);
  const previews = new Map<string, Pending>();
  const names = deps.names ?? null;
  const nameOf = (sku: string) => (names === null || sku === '' ? '' : names.name(sku));
  /** The SKUs the trader holds: a name matching one of them means that one. */
  const heldSkus = () => (store.db.prepare(`SELECT sku FROM (SELECT sku, min(rowid) AS first, 0 AS t FROM listings WHERE sku != '' GROUP BY sku
    UNION ALL SELECT sku, rowid, 1 FROM buy_orders) ORDER BY t, first`).all() as { sku: string }[]).map((r) => r.sku);

  function contextFor(kind: CsvKind, draftId: string | undefined): ImportContext {
    if (draftId !== undefined && !repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
    // Adoption writes the ledger; it must not change rows an apply is sending.
    const locked = kind === 'draft' ? new Set<string>() : lockedTargets(store);
    return {
      ledger,
      accounts: new Set(repos.accounts.list().map((a) => a.account_id)),
      mainAccount: repos.accounts.main()?.account_id ?? null,
      locked,
      draftOpen: draftId !== undefined,
      items: names === null ? null : itemLookup(names, heldSkus),
    };
  }

  function prepare(kind: CsvKind, text: string, draftId: string | undefined): Prepared {
    const none = { listings: [], buyOrders: [], changes: [], priceColumn: 'price' as const };
    if (kind === 'draft' && draftId === undefined) return { ...none, errors: [{ line: 1, reason: 'open or create a draft to import changes into' }] };
    const ctx = contextFor(kind, draftId);
    if (kind === 'listings') {
      const table = readCsv(text, LISTING_COLUMNS);
      const r = readListingsImport(table.records, ctx, table.priceColumn);
      return { ...none, listings: r.adopt.map((a) => a.row), changes: r.create, errors: [...table.errors, ...r.errors], priceColumn: table.priceColumn };
    }
    if (kind === 'buyOrders') {
      const table = readCsv(text, BUY_ORDER_COLUMNS);
      const r = readBuyOrdersImport(table.records, ctx, table.priceColumn);
      return { ...none, buyOrders: r.adopt.map((a) => a.row), errors: [...table.errors, ...r.errors], priceColumn: table.priceColumn };
    }
    const table = readCsv(text, DRAFT_COLUMNS);
    const r = readDraftImport(table.records, ctx, table.priceColumn);
    return { ...none, changes: r.changes, errors: [...table.errors, ...r.errors], priceColumn: table.priceColumn };
  }

  /** Draft refusals as lines of the file. */
  const mergeErrors = (p: Prepared, issues: readonly { index: number; field: string; message: string }[]): CsvLineError[] =>
    issues.map((i) => ({ line: p.changes[i.index]?.line ?? 1, reason: `${columnOf(i.field, p.priceColumn)}: ${i.message}` }));

  /** The name of the item a change is about: its SKU, or the ledger's for its asset. */
  const changeName = (c: ChangeInput | DraftEntry['change']): string => {
    if ('sku' in c && typeof c.sku === 'string') return nameOf(c.sku);
    if ('asset_id' in c && typeof c.asset_id === 'string') return nameOf(ledger.listing(c.asset_id)?.sku ?? '');
    return '';
  };

  function forget(now: number) {
    for (const [token, p] of previews) if (p.expiresAt <= now) previews.delete(token);
    while (previews.size >= max) {
      const oldest = previews.keys().next().value;
      if (oldest === undefined) break;
      previews.delete(oldest);
    }
  }

  return {
    exportListings: () => listingsToCsv(repos.listings.all(), nameOf),
    exportBuyOrders: () => buyOrdersToCsv(repos.buyOrders.all(), nameOf),
    exportDraft(draftId) {
      const sendable = drafts.entries(draftId).filter((e) => SENDABLE.includes(e.status));
      // Deletes first, as the apply runs them: a relist made before a later
      // delete-all must come after it when the file is read back.
      const rank = (e: DraftEntry) => (e.change.kind.endsWith('deleteAll') ? 0 : e.change.kind.endsWith('delete') ? 1 : 2);
      return changesToCsv(sendable.sort((a, b) => rank(a) - rank(b) || a.seq - b.seq).map((e) => e.change), changeName);
    },
    previewImport(kind, csvText, context = {}) {
      const p = prepare(kind, csvText, context.draftId);
      const errors = [...p.errors];
      let validCount = p.listings.length + p.buyOrders.length;
      if (p.changes.length > 0 && context.draftId !== undefined) {
        const check = drafts.checkChanges(context.draftId, p.changes.map((c) => c.input));
        validCount += check.added;
        // A loop, not push(...): a file can hold hundreds of thousands of refused lines.
        for (const e of mergeErrors(p, check.errors)) errors.push(e);
      }
      const now = clock.now();
      forget(now);
      const token = randomUUID();
      previews.set(token, { kind, text: csvText, draftId: context.draftId, expiresAt: now + ttl });
      return { token, kind, validCount, errors: byLine(errors) };
    },
    commitImport(token) {
      const pending = previews.get(token);
      previews.delete(token);
      if (!pending || pending.expiresAt <= clock.now()) {
        throw notFound('This import preview has expired or was already imported; preview the file again');
      }
      // Read again: the ledger or the draft may have changed since the preview.
      const p = prepare(pending.kind, pending.text, pending.draftId);
      const errors = [...p.errors];
      let imported = 0;
      if (p.listings.length > 0) repos.listings.upsertMany(p.listings);
      if (p.buyOrders.length > 0) repos.buyOrders.upsertMany(p.buyOrders);
      imported += p.listings.length + p.buyOrders.length;
      if (p.changes.length > 0 && pending.draftId !== undefined) {
        const added = drafts.addChanges(pending.draftId, p.changes.map((c) => c.input));
        imported += added.added;
        for (const e of mergeErrors(p, added.errors)) errors.push(e);
      }
      return { imported, errors: byLine(errors) };
    },
  };
}

import type { z } from 'zod';
import type * as d from './draft-views.ts';
import type * as v from './views.ts';

/** The views the renderer names, by their own names: each the output of a schema of the contract (`contract.ts` re-exports them). */
export type KeyStatus = z.output<typeof v.keyStatus>;
export type { BackupView, BackupsList, ProfileProblem, RecoverInput, RecoveryChoice, RestoreBackupResult } from './profile.ts';
export type AppStatus = z.output<typeof v.appStatus>;
export type Settings = z.output<typeof v.settings>;
export type HeartbeatView = z.output<typeof v.heartbeatState>;
export type SchedulerView = z.output<typeof v.schedulerState>;
export type BalanceView = z.output<typeof v.balanceView>;
export type TradesView = z.output<typeof v.tradesView>;
export type WatchedTradeView = z.output<typeof v.watchedTrade>;
export type AccountView = z.output<typeof v.accountView>;
export type AccountsView = z.output<typeof v.accountsView>;
export type ActivityEntry = z.output<typeof v.activityEntry>;
export type DraftSummary = z.output<typeof d.draftSummary>;
export type DraftsView = z.output<typeof d.draftsView>;
export type BulkOutcome = z.output<typeof d.bulkOutcome>;
export type GuardConfirmation = z.output<typeof d.guardConfirmation>;
export type AddChangesResult = z.output<typeof d.addChangesResult>;
export type DeleteAllImpact = z.output<typeof d.deleteAllImpact>;
export type ChangeRow = z.output<typeof d.changeRow>;
export type DraftReview = z.output<typeof d.draftReview>;
export type DraftPage = z.output<typeof d.draftPage>;
export type ApplyJobView = z.output<typeof d.applyJob>;
export type ApplyStateView = z.output<typeof d.applyState>;
export type UnknownOutcomeView = z.output<typeof d.unknownOutcome>;
export type UndoResultView = z.output<typeof d.undoResult>;
export type RelistResultView = z.output<typeof d.relistResult>;
export type UndoNoteView = z.output<typeof d.undoNote>;
export type UnknownOutcomesView = z.output<typeof d.unknownOutcomesView>;
export type CsvPreview = z.output<typeof d.csvPreview>;
export type { BulkOp, ChangeInput } from './drafts.ts';
export type { LedgerDomain, LedgerFilter, LedgerPage, LedgerRowView, ListingRowView, BuyOrderRowView, LedgerSelection, LedgerSort, LedgerColumn } from './ledger.ts';
export type { UpdateView } from './updates.ts';
export type { LedgerCheck as LedgerCheckView } from './ledger-check.ts';
export type { KeyTestResult } from './key-test.ts';
export type { HistoryPage, HistoryRange, HistoryRefusal, HistoryRowView, HistoryShow, HistorySummary, HistoryPeriod, TradeEnding } from './history.ts';
export type { ItemSearch, ItemMatch, ItemCandidate, ItemVariantsView } from './item-search.ts';
export type { Facet, ItemFacetCounts, ItemFacets } from './item-facets.ts';
export type {
  InventoryAccountState, InventoryDraftOutcome, InventoryFilter, InventoryItemView, InventoryPage, InventoryPricing, InventoryPricingOutcome,
  InventorySelection, InventorySort, InventoryState, KillstreakFilter, TypedAssetsCheck, TypedAssetsDraftOutcome,
} from './inventory.ts';
export type { AlertChoice, AlertKind, AlertsView, DeliveryView, WebhookFormat, WebhookTestResult, WebhookView } from './alerts.ts';
export type { CostImport, PricingState, SkuCosts } from './contract-pricing.ts';
export type { PricingSettings, RepriceRule, RuleView, SourceConfig, SourceView } from './pricing.ts';
export type { RepricePage, RepriceRowView, RepriceRunView } from './reprice.ts';

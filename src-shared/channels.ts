/**
 * The names of the bridge's channels and events, and nothing else: all the
 * preload needs to refuse a name the contract does not list. Kept free of
 * schemas so the sandboxed preload stays a few kilobytes; `contract.ts`
 * checks at compile time that these lists and its own keys are the same.
 */
export const CHANNEL_NAMES = [
  'app:status',
  'key:status', 'key:set', 'key:remove',
  'settings:get', 'settings:update',
  'heartbeat:state', 'heartbeat:beatNow', 'automation:setEnabled',
  'scheduler:state',
  'balance:get', 'balance:refresh',
  'trades:list', 'trades:checkNow', 'trades:openOffer', 'trades:openPartnerPage',
  'accounts:list', 'accounts:refresh', 'accounts:setTradeUrl', 'accounts:setAutomated',
  'ledger:page', 'ledger:keys', 'ledger:preview', 'ledger:bulk', 'ledger:delete', 'ledger:revert', 'ledger:deleteAllImpact',
  'ledger:exportCsv', 'ledger:facets', 'items:search', 'items:variants', 'history:summary', 'history:page', 'history:exportCsv',
  'drafts:list', 'drafts:create', 'drafts:rename', 'drafts:select', 'drafts:discard', 'drafts:addChanges',
  'drafts:removeChanges', 'drafts:removeFailed', 'drafts:review', 'drafts:page', 'drafts:exportCsv', 'drafts:importCsvPart', 'drafts:importCommit',
  'drafts:apply',
  'apply:state', 'apply:pause', 'apply:resume', 'apply:cancel', 'apply:unknownOutcomes', 'apply:resolve', 'apply:undo', 'apply:relistDeleted',
  'activity:list',
  // Support and updates.
  'support:openLogsFolder', 'support:saveDiagnostics', 'updates:state', 'updates:check', 'updates:restart',
  // Profit in History.
  'history:profit', 'history:profitSku', 'history:profitCsv',
  // Engine: ledger truth.
  'ledger:check',
  // First run.
  'key:test',
  // A profile that could not be opened.
  'profile:problem', 'profile:recover',
  // Backups of the open profile.
  'backups:list', 'backups:restore',
  // The inventory picker.
  'inventory:state', 'inventory:refresh', 'inventory:page', 'inventory:keys', 'inventory:preview', 'inventory:draft',
  'inventory:checkAssets', 'inventory:draftAssets',
  // Alerts off the desktop (webhooks).
  'alerts:list', 'alerts:add', 'alerts:change', 'alerts:remove', 'alerts:test',
  // Pricing.
  'pricing:state', 'pricing:updateSettings', 'pricing:addSource', 'pricing:changeSource', 'pricing:removeSource', 'pricing:readNow',
  'pricing:addRule', 'pricing:changeRule', 'pricing:removeRule', 'pricing:repriceNow', 'pricing:page', 'costs:of', 'costs:importCsv',
  // Who may reach the desk (the server shell).
  'access:state', 'access:createToken', 'access:revokeToken', 'access:changePassword', 'access:signOut',
] as const;

export const EVENT_NAMES = [
  'app:status', 'key:status', 'settings:changed', 'heartbeat:state', 'scheduler:state', 'balance:changed',
  'trades:changed', 'accounts:changed', 'ledger:changed', 'drafts:changed', 'apply:state',
  'apply:unknownOutcomes', 'activity:added', 'history:changed', 'app:navigate',
  // Updates.
  'updates:state',
  'inventory:changed',
  'alerts:changed',
  'pricing:changed',
  // A link main cannot open itself (the server shell): the page opens it.
  'app:openLink',
] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

import type { Unsubscribe } from '../events.ts';
import type { KeyService } from '../key/key-service.ts';
import type { KeyTester } from '../key/key-test.ts';
import type { AlertsService } from '../alerts/alerts-service.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { Settings, SettingsPatch } from '../settings/settings.ts';
import type { DeskStatusView } from '../../../src-shared/views.ts';
import type { Workspace } from './workspace.ts';

/**
 * The desk's services as it hands them to those who use them (the bridge's
 * handlers, its views and events, the shell, the log), each of which declares
 * the few it needs. The desk's own (settings, key, status) are one for its
 * life; a workspace's are asked for at each use through an accessor, since a
 * change of service (live, sandbox) replaces the workspace and all of them:
 * whoever subscribes to them subscribes again on `onWorkspace`.
 */
export interface DeskServices {
  readonly settings: Pick<SettingsService, 'get' | 'on' | 'notKept'>;
  readonly keys: KeyService;
  /** "Test key": asks the live service with the stored key, in sandbox mode too. */
  readonly keyTest: Pick<KeyTester, 'test' | 'last' | 'on'>;
  /** The trader's webhooks and the alerts sent to them (one for the desk's life: which workspace it follows, and its close, are the desk's). */
  readonly alerts: Pick<AlertsService, 'view' | 'add' | 'change' | 'remove' | 'test' | 'on'>;
  status(): DeskStatusView;
  /** Validates and applies a settings change (see Desk.updateSettings). */
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  setOnline(online: boolean): void;
  /** A new workspace is live: the accessors give its services from now on, and the last one's have stopped. */
  onWorkspace(listener: () => void): Unsubscribe;
  onStatus(listener: (status: DeskStatusView) => void): Unsubscribe;

  /** Which service the workspace talks to. */
  mode(): Workspace['mode'];
  baseUrl(): string;
  heartbeat(): Workspace['heartbeat'];
  scheduler(): Workspace['scheduler'];
  trades(): Workspace['trades'];
  accounts(): Workspace['accounts'];
  drafts(): Workspace['drafts'];
  csv(): Workspace['csv'];
  apply(): Workspace['apply'];
  applyJob(): Workspace['applyJob'];
  tables(): Workspace['tables'];
  names(): Workspace['names'];
  history(): Workspace['history'];
  ledgerExport(): Workspace['ledgerExport'];
  inventory(): Workspace['inventory'];
  ledger(): Workspace['ledger'];
  /** What each item cost, the price sources, the repricing rules and their schedule. */
  pricing(): Workspace['pricing'];
  /** The SKU of a listing the ledger holds; null when it holds none. */
  listingSku(assetId: string): string | null;
}

/** What the services are made of: the desk's own, and the workspace shown now with word of the next. */
export interface DeskServiceSources extends Pick<DeskServices, 'settings' | 'keys' | 'keyTest' | 'alerts' | 'status' | 'updateSettings' | 'setOnline'> {
  workspace(): Workspace;
  onWorkspace(listener: () => void): Unsubscribe;
  onStatus(listener: (status: DeskStatusView) => void): Unsubscribe;
}

export function deskServices(desk: DeskServiceSources): DeskServices {
  const ws = () => desk.workspace();
  return {
    settings: desk.settings,
    keys: desk.keys,
    keyTest: desk.keyTest,
    alerts: desk.alerts,
    status: () => desk.status(),
    updateSettings: (patch) => desk.updateSettings(patch),
    setOnline: (online) => desk.setOnline(online),
    onWorkspace: (listener) => desk.onWorkspace(listener),
    onStatus: (listener) => desk.onStatus(listener),
    mode: () => ws().mode,
    baseUrl: () => ws().baseUrl,
    heartbeat: () => ws().heartbeat,
    scheduler: () => ws().scheduler,
    trades: () => ws().trades,
    accounts: () => ws().accounts,
    drafts: () => ws().drafts,
    csv: () => ws().csv,
    apply: () => ws().apply,
    applyJob: () => ws().applyJob,
    tables: () => ws().tables,
    names: () => ws().names,
    history: () => ws().history,
    ledgerExport: () => ws().ledgerExport,
    inventory: () => ws().inventory,
    ledger: () => ws().ledger,
    pricing: () => ws().pricing,
    listingSku: (assetId) => ws().repos.listings.get(assetId)?.sku ?? null,
  };
}

import { factsOf, type DeskChannel } from '../../../src-shared/contract.ts';
import type { DeskServices } from '../../core/desk/desk-services.ts';
import { connectDeskEvents } from './desk-events.ts';
import { alertHandlers } from '../handlers/alerts.ts';
import { applyHandlers } from '../handlers/apply.ts';
import { draftHandlers } from '../handlers/drafts.ts';
import { engineHandlers } from '../handlers/engine.ts';
import { inventoryHandlers } from '../handlers/inventory.ts';
import { pricingHandlers } from '../handlers/pricing.ts';
import { ledgerHandlers } from '../handlers/ledger.ts';
import { historyHandlers } from '../handlers/history.ts';
import { ledgerCheckHandlers } from '../handlers/ledger-check.ts';
import { keyTestHandlers } from '../handlers/key-test.ts';
import { backupHandlers, openProfileHandlers, type BackupsHost } from '../handlers/profile.ts';
import type { Platform } from '../handlers/platform.ts';
import { createRouter, type EmitEvent, type Handlers, type Router } from '../router.ts';
import { createStamps } from '../stamps.ts';
import { createDeskViews } from '../views.ts';

export interface DeskRouter {
  readonly router: Router;
  /** Pushes an event from outside the desk (e.g. a notification click asks to show a trade). */
  readonly emit: EmitEvent;
}

/**
 * The router of the app: every contract channel answered by the desk, every
 * desk change pushed, each stamped with its area's stamp. The main process
 * binds it to ipcMain; the end-to-end tests bind the same router to a page.
 */
export interface DeskRouterOptions {
  checkOutputs: boolean;
  onUnexpected?: (where: string, error: unknown) => void;
  /** The first stamp (a desk reopened after its worker died continues beyond the last one). */
  stampBase?: number;
  /** Push every area at once when connected: screens of a desk reopened under them read everything again. */
  announceAtStart?: boolean;
  /** The profile's backups (the data worker); without it their channels say they do not run here. */
  backups?: BackupsHost;
}

/** Longer than the write of any bulk edit that goes well; a stalled one (full disk) is refused with its reason. */
const BULK_WAIT_MS = 5_000;

export function createDeskRouter(desk: { readonly services: DeskServices }, platform: Platform, options: DeskRouterOptions): DeskRouter {
  let emit: EmitEvent = () => undefined;
  const stamps = createStamps(options.stampBase);
  const { services } = desk;
  const views = createDeskViews(services, stamps);

  // The desk's channels; main answers its own (they need Electron) before a call reaches the desk.
  const handlers: Pick<Handlers, DeskChannel> = {
    ...engineHandlers(services, views, platform),
    ...ledgerHandlers(services, stamps),
    ...historyHandlers(services, stamps),
    ...draftHandlers(services, stamps),
    ...applyHandlers(services, views),
    ...ledgerCheckHandlers(services),
    ...keyTestHandlers(services, views),
    ...inventoryHandlers(services, stamps),
    ...pricingHandlers(services, stamps),
    ...openProfileHandlers(),
    ...backupHandlers(options.backups),
    ...alertHandlers(services, views),
  };

  const router = createRouter(handlers, {
    checkOutputs: options.checkOutputs,
    ...(options.onUnexpected ? { onUnexpected: options.onUnexpected } : {}),
    // A bulk edit is the draft's once journaled; the channels that change a draft or read it whole wait for its parts.
    beforeHandler: async (channel) => {
      if (factsOf(channel).waitsForBulkWrites) await services.drafts().settled(BULK_WAIT_MS);
    },
    connectEvents(e) {
      emit = e;
      return connectDeskEvents(services, e, stamps, views, { announceAtStart: options.announceAtStart ?? false });
    },
  });
  return { router, emit: (event, payload) => emit(event, payload) };
}

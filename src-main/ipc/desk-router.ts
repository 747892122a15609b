import type { Desk } from '../core/desk/desk.ts';
import { connectDeskEvents } from './desk-events.ts';
import { applyHandlers } from './handlers/apply.ts';
import { draftHandlers } from './handlers/drafts.ts';
import { engineHandlers } from './handlers/engine.ts';
import { inventoryHandlers } from './handlers/inventory.ts';
import { ledgerHandlers } from './handlers/ledger.ts';
import { historyHandlers } from './handlers/history.ts';
import { ledgerCheckHandlers } from './handlers/ledger-check.ts';
import { keyTestHandlers } from './handlers/key-test.ts';
import { shellHandlers } from './handlers/shell.ts';
import { backupHandlers, openProfileHandlers, type BackupsHost } from './handlers/profile.ts';
import type { Platform } from './handlers/platform.ts';
import { createRouter, type EmitEvent, type Handlers, type Router } from './router.ts';
import { createStamps } from './stamps.ts';
import { createDeskViews } from './views.ts';

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

/**
 * Channels that change a draft or read it whole. A bulk edit is confirmed once
 * journaled and its parts are written after (see core/store/bulk-patch.ts):
 * these wait for that, up to BULK_WAIT_MS, rather than meet a refusal the
 * trader did not cause by clicking quickly.
 */
const AFTER_BULK_WRITES = [
  'ledger:bulk', 'ledger:delete', 'ledger:revert', 'drafts:discard', 'drafts:addChanges', 'drafts:removeChanges', 'drafts:removeFailed',
  'drafts:review', 'drafts:exportCsv', 'drafts:importCommit', 'drafts:apply', 'inventory:draft', 'inventory:draftAssets',
] as const;
/** Longer than the write of any bulk edit that goes well; a stalled one (full disk) is refused with its reason. */
const BULK_WAIT_MS = 5_000;

/** The handler of `name`, answering once no bulk edit is being written. */
function afterBulkWrites<C extends keyof Handlers>(desk: Desk, handlers: Handlers, name: C): Handlers[C] {
  const handle = handlers[name] as (input: Parameters<Handlers[C]>[0]) => ReturnType<Handlers[C]>;
  const waiting = async (input: Parameters<Handlers[C]>[0]) => {
    await desk.workspace().drafts.settled(BULK_WAIT_MS);
    return handle(input);
  };
  return waiting as Handlers[C];
}

export function createDeskRouter(desk: Desk, platform: Platform, options: DeskRouterOptions): DeskRouter {
  let emit: EmitEvent = () => undefined;
  const stamps = createStamps(options.stampBase);
  const views = createDeskViews(desk, stamps);

  const handlers: Handlers = {
    ...engineHandlers(desk, views, platform),
    ...ledgerHandlers(desk, stamps),
    ...historyHandlers(desk, stamps),
    ...draftHandlers(desk, stamps),
    ...applyHandlers(desk, views),
    ...ledgerCheckHandlers(desk),
    ...keyTestHandlers(desk, views),
    ...inventoryHandlers(desk, stamps),
    ...shellHandlers(platform),
    ...openProfileHandlers(),
    ...backupHandlers(options.backups),
  };
  for (const name of AFTER_BULK_WRITES) Object.assign(handlers, { [name]: afterBulkWrites(desk, handlers, name) });

  const router = createRouter(handlers, {
    checkOutputs: options.checkOutputs,
    ...(options.onUnexpected ? { onUnexpected: options.onUnexpected } : {}),
    connectEvents(e) {
      emit = e;
      return connectDeskEvents(desk, e, stamps, views, { announceAtStart: options.announceAtStart ?? false });
    },
  });
  return { router, emit: (event, payload) => emit(event, payload) };
}

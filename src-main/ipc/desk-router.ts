import type { Desk } from '../core/desk/desk.ts';
import type { Workspace } from '../core/desk/workspace.ts';
import type { Unsubscribe } from '../core/events.ts';
import { connectDeskEvents } from './desk-events.ts';
import { applyHandlers, applyProgressView, unknownOutcomeView } from './handlers/apply.ts';
import { draftHandlers } from './handlers/drafts.ts';
import { engineHandlers } from './handlers/engine.ts';
import { ledgerHandlers } from './handlers/ledger.ts';
import { ledgerCheckHandlers } from './handlers/ledger-check.ts';
import type { Platform } from './handlers/platform.ts';
import { createRouter, type EmitEvent, type Handlers, type Router } from './router.ts';

export interface DeskRouter {
  readonly router: Router;
  /** Pushes an event from outside the desk (e.g. a notification click asks to show a trade). */
  readonly emit: EmitEvent;
}

/** Ledger refreshes during an apply are batched: the renderer reloads at most this often. */
const LEDGER_PUSH_MS = 1_000;

/**
 * The router of the app: every contract channel answered by the desk, every
 * desk event pushed. The main process binds it to ipcMain; the end-to-end
 * tests bind the same router to a browser page.
 */
export function createDeskRouter(desk: Desk, platform: Platform, options: { checkOutputs: boolean; onUnexpected?: (where: string, error: unknown) => void }): DeskRouter {
  let emit: EmitEvent = () => undefined;
  let ledgerTimer: ReturnType<typeof setTimeout> | undefined;
  const ledgerChanged = () => {
    if (ledgerTimer !== undefined) return;
    ledgerTimer = setTimeout(() => {
      ledgerTimer = undefined;
      emit('ledger:changed', { listings: true, buyOrders: true });
    }, LEDGER_PUSH_MS);
  };

  const handlers: Handlers = {
    ...engineHandlers(desk, platform),
    ...ledgerHandlers(desk),
    ...draftHandlers(desk),
    ...applyHandlers(desk, ledgerChanged),
    ...ledgerCheckHandlers(desk, ledgerChanged),
  };

  const workspaceEvents = (ws: Workspace): Unsubscribe[] => [
    ws.drafts.on('changed', (e) => emit('drafts:changed', e)),
    ws.apply.on('progress', (p) => {
      emit('apply:progress', applyProgressView(p));
      ledgerChanged();
    }),
    ws.apply.on('unknownOutcomes', (list) => emit('apply:unknownOutcomes', list.map(unknownOutcomeView))),
    // Issue #10: the trades showed listings sold.
    ws.ledger.on('marked', () => ledgerChanged()),
  ];

  const router = createRouter(handlers, {
    checkOutputs: options.checkOutputs,
    ...(options.onUnexpected ? { onUnexpected: options.onUnexpected } : {}),
    connectEvents(e) {
      emit = e;
      const off = connectDeskEvents(desk, e, workspaceEvents);
      return () => {
        clearTimeout(ledgerTimer);
        off();
      };
    },
  });
  return { router, emit: (event, payload) => emit(event, payload) };
}

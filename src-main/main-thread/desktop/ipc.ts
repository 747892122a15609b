import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { IpcResult } from '../../../src-shared/contract.ts';
import { isTrustedRendererUrl, type TrustedRenderer } from '../../core/shell/app-origin.ts';
import type { Router } from '../../ipc/router.ts';

/**
 * Binds the IPC router to Electron: every contract channel to
 * `ipcMain.handle`, every router event to the window. The router validates
 * payloads; this layer decides who may call at all: only the app's own page,
 * in its top frame, identified by the sender frame's parsed URL.
 */

export interface BindRouterOptions {
  /** Which page is the app's own (its dev server in development). */
  readonly trusted: TrustedRenderer;
  /** Where router events go: the main window's contents, or null while there is none. */
  readonly target: () => WebContents | null;
  /** Told about each call refused for its sender. */
  readonly onRefused?: (channel: string, senderUrl: string) => void;
}

/** The error kind of a call whose sender is not the app's page. */
export const UNTRUSTED_SENDER = 'untrusted_sender';

/**
 * The answer to a call from another page: outside the error kinds the app's
 * page words, since that page never receives it.
 */
export interface UntrustedRefusal {
  readonly ok: false;
  readonly error: { readonly kind: typeof UNTRUSTED_SENDER; readonly message: string };
}

/** Whether the invoking frame is the app's own top-level page. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, trusted: TrustedRenderer): boolean {
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed mid-call reports null.
  if (!frame) return false;
  return frame.parent === null && isTrustedRendererUrl(frame.url, trusted);
}

/**
 * Binds every channel and forwards every event. Returns a function that
 * removes the handlers and the event subscription (for tests and shutdown).
 */
export function bindRouter(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  router: Router,
  options: BindRouterOptions,
): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, async (event, input: unknown): Promise<IpcResult<unknown> | UntrustedRefusal> => {
      if (!isTrustedSender(event, options.trusted)) {
        const url = event.senderFrame?.url ?? '';
        options.onRefused?.(channel, url);
        return { ok: false, error: { kind: UNTRUSTED_SENDER, message: `Refused ${channel}: the caller is not the app's own page.` } };
      }
      return router.invoke(channel, input);
    });
  }
  const events = new Set(router.events);
  const unsubscribe = router.subscribe((name, payload) => {
    if (!events.has(name)) return;
    const target = options.target();
    // Pushes carry trade data: only to the app's own page, never to whatever else it shows.
    if (target && !target.isDestroyed() && isTrustedRendererUrl(target.getURL(), options.trusted)) {
      target.send(name, payload);
    }
  });
  return () => {
    unsubscribe();
    for (const channel of router.channels) ipcMain.removeHandler(channel);
  };
}

import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { FieldIssue } from '../../core/api/errors.ts';
import type { Unsubscribe } from '../../core/events.ts';
import { isTrustedRendererUrl, type TrustedRenderer } from '../../core/shell/app-origin.ts';

/**
 * Binds the IPC router to Electron: every contract channel to
 * `ipcMain.handle`, every router event to the window. The router validates
 * payloads; this layer decides who may call at all: only the app's own page,
 * in its top frame, identified by the sender frame's parsed URL.
 *
 * `Router` and `IpcResult` are declared here as the minimum this file needs,
 * matching src-main/ipc/router.ts as agreed; the real router satisfies them
 * structurally.
 */

export type IpcResult<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; error: { kind: string; message: string; issues?: FieldIssue[] } };

export interface Router {
  /** Contract channel names, 'domain:verb'. */
  readonly channels: readonly string[];
  /** Contract event names. */
  readonly events: readonly string[];
  /** Validates the input and runs the channel's handler. Never throws. */
  invoke(channel: string, input: unknown): Promise<IpcResult>;
  subscribe(listener: (event: string, payload: unknown) => void): Unsubscribe;
}

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
    ipcMain.handle(channel, async (event, input: unknown): Promise<IpcResult> => {
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

import { type App, type Session, shell, type WebContents } from 'electron';
import { allowedExternalUrl, type ExternalLinkPolicy } from '../../core/shell/external-links.ts';

/**
 * The security checklist's rules for web content, applied in one place:
 * the renderer may not navigate away, open windows, embed <webview>s or be
 * granted any permission. Links it asks to open go to the system browser
 * only when the allowlist says so.
 */

export interface HardeningDeps {
  /** The allowlist's policy, or a function read at each link (the service URL is a setting). */
  readonly links: ExternalLinkPolicy | (() => ExternalLinkPolicy);
  /** Opens a checked URL in the system browser; shell.openExternal by default. */
  readonly openExternal?: (url: string) => Promise<void>;
  /** Told about every refused navigation, window or link, e.g. for a log. */
  readonly onRefused?: (what: 'navigation' | 'window' | 'webview' | 'link', url: string) => void;
}

/** Opens `raw` in the browser when the allowlist passes it; true when opened. */
export function openIfAllowed(raw: string, deps: HardeningDeps): boolean {
  const url = allowedExternalUrl(raw, typeof deps.links === 'function' ? deps.links() : deps.links);
  if (url === null) {
    deps.onRefused?.('link', raw);
    return false;
  }
  const open = deps.openExternal ?? ((u: string) => shell.openExternal(u));
  open(url).catch(() => deps.onRefused?.('link', url));
  return true;
}

const hardened = new WeakSet<WebContents>();

/**
 * Every navigation is refused: the app is one page and moves between views
 * in-page. A click on an allowed link (e.g. a trade offer) opens the browser
 * instead. New windows are refused the same way.
 */
export function hardenWebContents(contents: WebContents, deps: HardeningDeps): void {
  // Both the window and the app-wide hook apply this; twice would open a link twice.
  if (hardened.has(contents)) return;
  hardened.add(contents);
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    deps.onRefused?.('navigation', event.url);
    openIfAllowed(event.url, deps);
  });
  contents.on('will-frame-navigate', (event) => {
    // The top frame is covered by will-navigate; a subframe has no business moving.
    if (!event.isMainFrame) {
      event.preventDefault();
      deps.onRefused?.('navigation', event.url);
    }
  });
  contents.on('will-redirect', (event) => {
    event.preventDefault();
    deps.onRefused?.('navigation', event.url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    deps.onRefused?.('window', url);
    openIfAllowed(url, deps);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event, _webPreferences, params) => {
    event.preventDefault();
    deps.onRefused?.('webview', params.src ?? '');
  });
}

/** Applies the rules to every web contents the app ever creates, not only the main window's. */
export function hardenEveryWebContents(app: App, deps: HardeningDeps): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, deps));
}

/**
 * No permission is granted and none reports as granted: the app needs no
 * camera, location, notifications (those come from the main process) or
 * clipboard-read. A copy button goes through the main process instead.
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

import { readFileSync } from 'node:fs';
import { resolveAppAsset, APP_SCHEME, APP_HOST, type AppAsset } from '../../core/shell/app-origin.ts';

/**
 * The built renderer as the server serves it: the desk's page (index.html)
 * with the socket client that gives it `window.api` and the session's CSRF
 * token; the sign-in page (access.html, for /login and /setup) with the
 * form's token; and the files under the folder, resolved by the same check
 * the desktop's app:// protocol uses (nothing outside the folder).
 */

/** The socket client's file, beside index.html (electron.vite.config.ts names it). */
export const SOCKET_CLIENT = 'socket.js';

export interface RendererFiles {
  /** The desk's page for a session: its CSRF token in a meta element, the socket client before the app. */
  deskPage(csrf: string): string;
  /** The sign-in page: the form's CSRF token, how the server is reached, whether a password is set. */
  accessPage(page: { formToken: string; transport: string; passwordSet: boolean }): string;
  /** Whether a path is one of the sign-in page's own files (served without a session). */
  isPublic(pathname: string): boolean;
  /** The file a path names under the folder, or null. */
  file(pathname: string): AppAsset | null;
}

const escapeAttr = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Puts `markup` at the start of <head>, before the page's own scripts. */
function intoHead(html: string, markup: string): string {
  const at = html.indexOf('<head>');
  if (at < 0) throw new Error('the built page has no <head>');
  return `${html.slice(0, at + 6)}\n    ${markup}${html.slice(at + 6)}`;
}

/** The files a page names (`src`, `href`) under ./assets/: the sign-in page's script, styles and preloads. */
function filesNamedBy(html: string): Set<string> {
  const out = new Set<string>();
  for (const match of html.matchAll(/\b(?:src|href)="\.?\/(assets\/[\w.-]+)"/g)) out.add(`/${match[1]}`);
  return out;
}

export function loadRendererFiles(dir: string): RendererFiles {
  const read = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
  const index = read('index.html');
  const access = read('access.html');
  const publicFiles = filesNamedBy(access);
  return {
    deskPage: (csrf) => intoHead(index, `<meta name="desk-csrf" content="${escapeAttr(csrf)}">\n    <script type="module" src="./${SOCKET_CLIENT}"></script>`),
    accessPage: ({ formToken, transport, passwordSet }) => intoHead(access, [
      `<meta name="desk-form" content="${escapeAttr(formToken)}">`,
      `<meta name="desk-transport" content="${escapeAttr(transport)}">`,
      `<meta name="desk-password" content="${passwordSet ? 'set' : 'unset'}">`,
    ].join('\n    ')),
    isPublic: (pathname) => publicFiles.has(pathname),
    file: (pathname) => resolveAppAsset(dir, `${APP_SCHEME}://${APP_HOST}${pathname}`),
  };
}

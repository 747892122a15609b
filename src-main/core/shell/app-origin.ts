import { extname, isAbsolute, join, normalize, relative, sep } from 'node:path';

/**
 * The renderer's home in production: `app://desk/`, a privileged standard and
 * secure scheme, rather than file://. A file:// page shares its origin with
 * every file on the disk; this one has an origin of its own, so the CSP's
 * 'self', the IPC sender check and navigation checks mean exactly the app.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
/** The page the main window loads in production. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export interface TrustedRenderer {
  /** The dev server's URL (electron-vite's ELECTRON_RENDERER_URL) in development only. */
  readonly devServerUrl?: string;
}

/**
 * Whether a frame showing `raw` is the app's own renderer: the app scheme and
 * host, or in development the dev server's exact origin. Parsed, never
 * prefix-matched (`app://desk.evil/` or `http://localhost:5173.evil/` fail).
 */
export function isTrustedRendererUrl(raw: string, trusted: TrustedRenderer = {}): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  // A custom scheme's URL has an opaque origin ('null'), so compare its parts.
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.username === '' && url.password === '') {
    return true;
  }
  if (trusted.devServerUrl === undefined) return false;
  let dev: URL;
  try {
    dev = new URL(trusted.devServerUrl);
  } catch {
    return false;
  }
  return (dev.protocol === 'http:' || dev.protocol === 'https:') && url.origin === dev.origin;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface AppAsset {
  readonly filePath: string;
  readonly contentType: string;
}

/**
 * The file under `rootDir` that an `app://desk/…` request names, or null for
 * any other host, a path that escapes the folder, or a malformed escape.
 * A path without an extension is a client-side route and gets index.html, so
 * a reload on any view still finds the app.
 */
export function resolveAppAsset(rootDir: string, requestUrl: string): AppAsset | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // The URL parser already resolved literal dot segments; any left came
  // encoded, which only an attempt to escape the folder would do.
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null;
  if (path === '/' || path === '' || extname(path) === '') path = '/index.html';
  const root = normalize(rootDir);
  const filePath = join(root, normalize(path));
  const inside = relative(root, filePath);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return null;
  return {
    filePath,
    contentType: CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream',
  };
}

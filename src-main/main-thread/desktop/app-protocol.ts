import { readFile } from 'node:fs/promises';
import { protocol, type Session } from 'electron';
import { APP_SCHEME, resolveAppAsset } from '../../core/shell/app-origin.ts';
import { contentSecurityPolicy } from '../../core/shell/csp.ts';

/**
 * Serves the built renderer from `app://desk/` with the CSP as a response
 * header. A header (not only a <meta> tag) covers every document the scheme
 * serves and cannot be removed by markup injected into the page.
 */

/**
 * Declares the app scheme privileged: standard (URLs resolve like https, so
 * the page has a real origin), secure (a secure context, like https). Must run
 * before the app's `ready` event.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

const securityHeaders = (contentType: string): Record<string, string> => ({
  'content-type': contentType,
  'content-security-policy': contentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache',
});

/**
 * Answers `app://desk/…` from the files in `rendererDir` (inside the asar in a
 * packaged app). Anything else (another host, a path outside the folder, a
 * method other than GET) is refused.
 */
export function serveRenderer(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, (request) => respondWithAsset(rendererDir, request));
}

/** The protocol handler's body, exported for the tests. */
export async function respondWithAsset(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
  }
  const asset = resolveAppAsset(rendererDir, request.url);
  if (!asset) return new Response('Not found', { status: 404, headers: securityHeaders('text/plain; charset=utf-8') });
  let body: Buffer;
  try {
    body = await readFile(asset.filePath);
  } catch {
    return new Response('Not found', { status: 404, headers: securityHeaders('text/plain; charset=utf-8') });
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: securityHeaders(asset.contentType),
  });
}

/**
 * In development the renderer comes from the Vite dev server; the same policy
 * (plus the HMR socket) is added to its responses so development shows CSP
 * violations as production would.
 */
export function applyDevServerCsp(session: Session, devServerUrl: string): void {
  const origin = new URL(devServerUrl).origin;
  const csp = contentSecurityPolicy({ devServerUrl });
  session.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}

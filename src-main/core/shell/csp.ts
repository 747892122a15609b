/**
 * The renderer's Content-Security-Policy, sent as a response header by the
 * app protocol (and by a header hook for the dev server). Scripts come from
 * the app alone: no inline script, no eval, no remote code. The renderer talks
 * to the main process only through IPC, so it needs no network at all.
 */
export interface CspOptions {
  /** The dev server's URL in development: its origin and its HMR socket are allowed. */
  readonly devServerUrl?: string;
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const dev = options.devServerUrl === undefined ? null : new URL(options.devServerUrl);
  const socket = dev === null ? null : `${dev.protocol === 'https:' ? 'wss:' : 'ws:'}//${dev.host}`;
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    // Vite injects component styles as <style> elements in development only.
    ['style-src', "'self'", ...(dev ? ["'unsafe-inline'"] : [])],
    // Vue writes `style` attributes when it stringifies static markup; an
    // attribute cannot run code, a <style> element from elsewhere stays refused.
    ['style-src-attr', "'unsafe-inline'"],
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...(socket ? [socket] : [])],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
    ['frame-src', "'none'"],
    ['object-src', "'none'"],
    ['worker-src', "'none'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

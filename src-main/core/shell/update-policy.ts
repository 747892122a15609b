/**
 * What the app refuses on the way to an update, besides a file whose
 * signature does not hold (update-signature.ts): a version older than the
 * one installed, and any request that leaves the feed's host or https.
 */

/**
 * An update the app would not take. `sentence` is for the trader (Settings
 * shows it after "Version X was refused and not installed:"); `detail` is
 * for the log.
 */
export class UpdateRefused extends Error {
  readonly version: string | null;
  readonly sentence: string;
  readonly detail: string;
  constructor(version: string | null, sentence: string, detail: string) {
    super(`update refused: ${detail}`);
    this.name = 'UpdateRefused';
    this.version = version;
    this.sentence = sentence;
    this.detail = detail;
  }
}

interface Parsed { readonly core: readonly [number, number, number]; readonly pre: readonly string[] }

function parse(version: string): Parsed | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** Semantic-version precedence: negative when `a` is older than `b`; null when either is not a version. */
export function compareVersions(a: string, b: string): number | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return (x.core[i] ?? 0) - (y.core[i] ?? 0);
  // A pre-release comes before its release.
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Why `offered` must not replace `installed`, or null when it is newer. */
export function downgradeRefusal(installed: string, offered: string): UpdateRefused | null {
  const order = compareVersions(offered, installed);
  if (order === null) return new UpdateRefused(offered, 'the update feed did not give a valid version number.', `version ${JSON.stringify(offered)} is not a version`);
  if (order > 0) return null;
  return new UpdateRefused(
    offered,
    `it is ${order === 0 ? 'the version already installed' : `older than the installed version ${installed}`}; a feed that offers that may have been tampered with.`,
    `downgrade from ${installed} to ${offered}`,
  );
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a request for an update (the feed's files, the installer, its
 * signature, and every redirect on the way) must not be made, or null. It
 * must stay on the feed's host and on https; a feed on this machine's
 * loopback (a test's) may use its own plain http.
 */
export function feedRequestRefusal(feedUrl: string, requestUrl: string): UpdateRefused | null {
  const feed = new URL(feedUrl);
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return new UpdateRefused(null, 'the update feed named an address that is not one.', `not an address: ${JSON.stringify(requestUrl)}`);
  }
  const where = `${url.protocol}//${url.host}`;
  if (url.host !== feed.host) {
    return new UpdateRefused(null, `it was to come from another server (${url.host}); updates come only from ${feed.host}.`, `request to ${where}, off the feed's host ${feed.host}`);
  }
  const plainLoopback = LOOPBACK.has(feed.hostname) && url.protocol === feed.protocol;
  if (url.protocol !== 'https:' && !plainLoopback) {
    return new UpdateRefused(null, 'it was to come over an unencrypted connection; updates come only over https.', `request to ${where}, off https`);
  }
  return null;
}

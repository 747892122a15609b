/**
 * Looks for secrets in everything that leaves the server: each secret of
 * the list (the API key, the password, and whatever a later feature adds,
 * a webhook's token) in the spellings a leak takes: as written, in any case,
 * URL-encoded, JSON-escaped, base64 (at each byte alignment) and hex; and any
 * eight characters in a row of it (the key's last four are shown on purpose).
 * Kept apart from the desk's own scrubbing (core/api/key-forms.ts), so a
 * fault in one is not hidden by the same fault in the other.
 */
export interface SecretHit {
  readonly secret: string;
  readonly where: string;
  readonly form: string;
}

export interface SecretScanner {
  /** Scans one text that left the server (a response body, a frame, a log line). */
  scan(where: string, text: string): void;
  readonly hits: readonly SecretHit[];
  /** How many texts were scanned, by the part of `where` before the first space. */
  counts(): Record<string, number>;
}

const WINDOW = 8;

function formsOf(secret: string): Array<[string, string]> {
  const bytes = Buffer.from(secret);
  const base64 = [0, 1, 2].map((skip) => Buffer.concat([Buffer.alloc(skip), bytes]).toString('base64').slice(4).slice(0, -4));
  return [
    ['URL-encoded', encodeURIComponent(secret)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ...base64.map((b, i): [string, string] => [`base64 (${i})`, b]),
    ['base64url', bytes.toString('base64url').slice(0, -2)],
    ['hex', bytes.toString('hex')],
  ];
}

export function secretScanner(secrets: Readonly<Record<string, string>>): SecretScanner {
  const hits: SecretHit[] = [];
  const counts: Record<string, number> = {};
  const checks = Object.entries(secrets).map(([name, secret]) => ({
    name,
    windows: Array.from({ length: Math.max(1, secret.length - WINDOW + 1) }, (_, i) => secret.slice(i, i + WINDOW).toLowerCase()),
    forms: formsOf(secret).map(([form, text]) => [form, text.toLowerCase()] as const).filter(([, text]) => text.length >= WINDOW),
  }));
  return {
    hits,
    scan(where, text) {
      const kind = where.split(' ')[0] ?? where;
      counts[kind] = (counts[kind] ?? 0) + 1;
      const lower = text.toLowerCase();
      for (const check of checks) {
        const run = check.windows.find((w) => lower.includes(w));
        if (run !== undefined) hits.push({ secret: check.name, where, form: `"${run}…" as written` });
        for (const [form, encoded] of check.forms) if (lower.includes(encoded)) hits.push({ secret: check.name, where, form });
      }
    },
    counts: () => ({ ...counts }),
  };
}

import { redactSecret } from '../api/redact.ts';

/**
 * The bundle "Save diagnostics…" writes for a bug report: versions, the
 * settings (which hold no secret; a service URL loses any user:password),
 * whether a key is set (never the key, nor its last characters), the rate
 * budget, the heartbeat, the applies and their states, updates, and the
 * newest log lines. The whole text is scrubbed of the key once more before
 * it is written, whatever a line might hold.
 */
export interface DiagnosticsInput {
  readonly createdAt: string;
  readonly versions: Record<string, string | null>;
  readonly settings: Record<string, unknown>;
  readonly key: { readonly set: boolean; readonly state: string; readonly keychainAvailable: boolean };
  readonly status: Record<string, unknown>;
  readonly rateBudget: unknown;
  readonly heartbeat: unknown;
  readonly applies: unknown;
  readonly unknownOutcomes: number;
  readonly updates: unknown;
  /** The newest log lines, oldest first. */
  readonly logs: readonly string[];
}

export function diagnosticsBundle(input: DiagnosticsInput, secrets: readonly (string | null)[]): string {
  const bundle = {
    about: 'Marketplace Desk diagnostics: attach this file to a bug report. It holds no API key.',
    ...input,
    settings: { ...input.settings, ...(typeof input.settings.serviceUrl === 'string' ? { serviceUrl: withoutUserInfo(input.settings.serviceUrl) } : {}) },
    status: { ...input.status, ...(typeof input.status.serviceUrl === 'string' ? { serviceUrl: withoutUserInfo(input.status.serviceUrl) } : {}) },
  };
  let text = `${JSON.stringify(bundle, null, 2)}\n`;
  for (const secret of secrets) text = redactSecret(text, secret);
  return text;
}

function withoutUserInfo(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return '(not a URL)';
  }
}

/** A file name that sorts by date: marketplace-desk-diagnostics-2026-01-31-1405.json. */
export function diagnosticsFileName(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `marketplace-desk-diagnostics-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.json`;
}

import { describe, expect, it } from 'vitest';
import { DESK_ERROR_KINDS, type DeskErrorKind, type ErrorView } from '../../../src-shared/errors.ts';
import { describeError, wordError } from '../../../src-renderer/src/lib/error-text.ts';
import { badWording } from './wording-rules.ts';

/**
 * Every distinct error text the renderer can show for the error kinds of the
 * contract, read the way the trader reads them: each must be a sentence about
 * their situation, with the technical detail (endpoint, status, code, the
 * service's JSON) only in the Details part.
 */

/** Messages as the client writes them (src-main/core/api/response.ts and client.ts), the worst the service can send. */
const CLIENT_MESSAGES: Partial<Record<DeskErrorKind, readonly string[]>> = {
  auth: ['create_listing: the service refused the API key (status 401)'],
  forbidden: ['edit_listing: the account is not allowed to do this (status 403): {"success":false,"error":"banned"}'],
  rate_limited: ['edit_listing: rate limit exceeded (status 429); retry after 42 s'],
  rejected: [
    'create_listing: the service refused the request (status 400): {"success":false,"error":"items.0.asset_id: asset not in inventory"}',
    'edit_buy_order: the service answered success: false: {"success":false,"error":"insufficient balance"}',
    'delete_listing: the service refused the request (status 404): {"success":false,"error":"items[3].asset_id: no such listing"}',
    'create_listing: the service refused the request (status 400): {"success":false,"error":"ite',
    'not sent: the listing is not on the service (edit refused: no such listing); clear it, or list the asset again',
  ],
  server: ['edit_listing: the service failed (status 503): {"success":false,"error":"the service is temporarily unavailable"}'],
  network: [
    'get_balance: could not reach the service, the request was not sent (ECONNREFUSED)',
    'load_pending: could not reach the service, the response was lost (UND_ERR_SOCKET)',
    'set_user_agent: could not reach the service, the request was not sent (timed out after 30000 ms)',
  ],
  bad_response: [
    'create_listing: the response is not valid JSON: <html><body>502</body></html>',
    'get_balance: unexpected status 302',
    'load_pending: response does not match: items.0.price: Expected number, received string',
  ],
  unknown_outcome: [
    'create_listing: the request may have reached the service but its response was lost (UND_ERR_SOCKET); check the result before sending it again',
  ],
  invalid: [
    'The service URL must start with https:// (plain http only for 127.0.0.1)',
    '“keep” is not one of the choices for this outcome (create_listing)',
    'create_listing: items.0.price: must be more than 0 cents',
  ],
  bridge: ['window.api is missing', 'Error invoking remote method: ECONNRESET'],
  internal: ['TypeError: Cannot read properties of undefined (reading "x") at foo.ts:12'],
};

/** Messages main writes for the desk's own kinds: every literal and template of src-main, with samples for the holes. */
function mainMessages(): Array<{ kind: DeskErrorKind; message: string }> {
  const sources = import.meta.glob('../../../src-main/**/*.ts', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
  const found: Array<{ kind: DeskErrorKind; message: string }> = [];
  const patterns: Array<[RegExp, (m: RegExpExecArray) => DeskErrorKind]> = [
    [/new DomainError\('([a-z_]+)',\s*(['`])((?:(?!\2).)*)\2/g, (m) => m[1] as DeskErrorKind],
    [/\bnotFound\((['`])((?:(?!\1).)*)\1/g, () => 'not_found'],
    [/\bconflict\((['`])((?:(?!\1).)*)\1/g, () => 'conflict'],
    [/\brefused\((['`])((?:(?!\1).)*)\1/g, () => 'invalid'],
    [/new KeyError\('([a-z_]+)',\s*(['`])((?:(?!\2).)*)\2/g, (m) => m[1] as DeskErrorKind],
    [/new KeychainError\((['`])((?:(?!\1).)*)\1/g, () => 'keychain_unavailable'],
  ];
  for (const text of Object.values(sources)) {
    for (const [pattern, kindOf] of patterns) {
      for (const m of text.matchAll(pattern)) {
        const raw = m[m.length - 1] ?? '';
        // A hole in a template: the kind of value main puts there.
        const message = raw.replace(/\$\{[^}]*\}/g, (hole) =>
          /reason|why|error/i.test(hole) ? 'org.freedesktop.Secret.Error.IsLocked (ECONNRESET)' : /quoted|id|draft/i.test(hole) ? '“d-1”' : 'store');
        found.push({ kind: kindOf(m as RegExpExecArray), message });
      }
    }
  }
  return found;
}

/** Every combination of the fields that change the wording. */
function variants(kind: DeskErrorKind, message: string): ErrorView[] {
  const out: ErrorView[] = [];
  const issueSets = [undefined, [{ item: 0, field: 'items.0.price', message: 'must be more than 0 cents' }],
    Array.from({ length: 5 }, (_, i) => ({ item: i, field: `items.${i}.user_note`, message: 'is 216 characters; at most 180' }))];
  for (const endpoint of [undefined, 'create_listing', 'some_new_endpoint']) {
    for (const status of [undefined, 400, 503]) {
      for (const retryAfterMs of [undefined, 41_200]) {
        for (const issues of issueSets) {
          for (const moreIssues of [undefined, 1, 980]) {
            out.push({
              kind, message,
              ...(endpoint === undefined ? {} : { endpoint }),
              ...(status === undefined ? {} : { status }),
              ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
              ...(issues === undefined ? {} : { issues }),
              ...(moreIssues === undefined ? {} : { moreIssues }),
            });
          }
        }
      }
    }
  }
  return out;
}

function corpus(): Map<string, ErrorView> {
  const texts = new Map<string, ErrorView>();
  const messages: Array<{ kind: DeskErrorKind; message: string }> = [
    ...DESK_ERROR_KINDS.flatMap((kind) => [...(CLIENT_MESSAGES[kind] ?? []), '', 'x'].map((message) => ({ kind, message }))),
    ...mainMessages(),
  ];
  for (const { kind, message } of messages) {
    for (const view of variants(kind, message)) {
      const text = describeError(view);
      if (!texts.has(text)) texts.set(text, view);
    }
  }
  return texts;
}

describe('every error text the renderer can show', () => {
  const texts = corpus();

  it('covers every kind of the contract and the messages main writes', () => {
    const kinds = new Set([...texts.values()].map((v) => v.kind));
    expect([...kinds].sort()).toEqual([...DESK_ERROR_KINDS].sort());
    expect(mainMessages().length).toBeGreaterThan(15);
  });

  it('is a sentence about the trader’s situation: no JSON, no bare status, no error code, no broken plural', () => {
    const bad = [...texts.keys()].map((text) => ({ text, why: badWording(text) })).filter((t) => t.why !== null);
    expect(bad).toEqual([]);
  });

  it('keeps the technical detail for the Details disclosure', () => {
    const view: ErrorView = {
      kind: 'rejected', endpoint: 'create_listing', status: 400,
      message: 'create_listing: the service refused the request (status 400): {"success":false,"error":"items.0.asset_id: asset not in inventory"}',
    };
    const { text, details } = wordError(view);
    expect(text).toBe('The service refused to create these listings — item 1, asset ID: asset not in inventory. Sending it again will not help; change it first.');
    expect(details).toContain('Endpoint: create_listing');
    expect(details).toContain('HTTP status: 400');
    expect(details.join('\n')).toContain('{"success":false');

    const lost = wordError({ kind: 'unknown_outcome', endpoint: 'create_listing', message: CLIENT_MESSAGES.unknown_outcome?.[0] ?? '' });
    expect(lost.text).not.toMatch(/UND_ERR/);
    expect(lost.details).toContain('Code: UND_ERR_SOCKET');
  });
});

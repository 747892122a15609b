import type { z } from 'zod';
import { serviceUrlProblem } from '../../../src-shared/fields.ts';
import { ApiError, type FieldIssue } from '../api/errors.ts';
import { parseRetryAfterHeader } from '../api/rate-headers.ts';
import { failureLabel, lazyPool, send, unreachableWords } from '../api/transport.ts';
import type { Clock } from '../clock.ts';
import { steamPage, type SteamPage } from './steam-answer.ts';

/**
 * Reads one page of an account's TF2 inventory from Steam's public community
 * endpoint (`GET /inventory/<id64>/440/2?l=english&count=<n>&start_assetid=<id>`).
 * No key travels: the endpoint is public. Every answer is checked (zod) and
 * every failure is an ApiError the reader can act on: `forbidden` for a
 * private inventory (403), `rate_limited` for Steam's 429 (with Retry-After
 * when Steam sent one), `server` for a 5xx or a `success` that is not 1,
 * `bad_response` naming the field for an answer that does not fit, `network`
 * when Steam could not be reached.
 */

/** Steam's own address; HTTPS only. */
export const STEAM_COMMUNITY_URL = 'https://steamcommunity.com';
/** Items a page: Steam refuses more than 2,000 (a 400 since mid-2025). */
export const STEAM_PAGE_SIZE = 2_000;

export interface SteamInventoryClient {
  readPage(account: string, startAssetId: string | null, signal?: AbortSignal): Promise<SteamPage>;
  close(): Promise<void>;
}

export interface SteamClientOptions {
  /** https://…, or http:// on a loopback host (the sandbox). */
  baseUrl: string;
  clock: Clock;
  /** Default STEAM_PAGE_SIZE. */
  pageSize?: number;
  /** Total time for one page, default 30 s. */
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function createSteamInventoryClient(options: SteamClientOptions): SteamInventoryClient {
  const problem = serviceUrlProblem(options.baseUrl);
  if (problem !== null) throw new ApiError('invalid', `The Steam inventory URL ${problem}`, { issues: [{ field: 'baseUrl', message: problem }] });
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pageSize = options.pageSize ?? STEAM_PAGE_SIZE;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pool = lazyPool(url.origin, { connections: 2, connectTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function readPage(account: string, startAssetId: string | null, signal?: AbortSignal): Promise<SteamPage> {
    const what = `Steam's inventory of ${account}`;
    const query = `l=english&count=${pageSize}${startAssetId === null ? '' : `&start_assetid=${startAssetId}`}`;
    const deadline = AbortSignal.timeout(timeoutMs);
    const result = await send(await pool.get(), {
      method: 'GET',
      path: `${prefix}/inventory/${account}/440/2?${query}`,
      headers: { accept: 'application/json' },
      signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
      maxBodyBytes: () => MAX_BODY_BYTES,
    });
    if (!result.ok) {
      if (signal?.aborted === true) throw signal.reason;
      const why = deadline.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : unreachableWords(result.error);
      throw new ApiError('network', `${what} could not be read: ${why}`, { cause: new Error(failureLabel(result.error)) });
    }
    const { status, headers, body, truncated } = result.response;
    if (status === 403) throw new ApiError('forbidden', `${what} is private`, { status });
    if (status === 429) {
      const retryAfterMs = parseRetryAfterHeader(headers, options.clock.now());
      throw new ApiError('rate_limited', `Steam refused to read ${account}'s inventory now (429)`, {
        status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (status >= 500) throw new ApiError('server', `${what} could not be read: Steam answered ${status}`, { status });
    if (status !== 200) throw new ApiError('rejected', `${what} could not be read: Steam answered ${status}`, { status });
    if (truncated) throw new ApiError('bad_response', `${what}: the answer is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, { status });
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ApiError('bad_response', `${what}: the answer is not JSON (it may be cut off)`, { status, issues: [{ field: '(body)', message: 'is not JSON' }] });
    }
    if (json === null) throw new ApiError('server', `${what} could not be read: Steam answered null`, { status });
    return checked(what, status, json);
  }

  return {
    readPage,
    close: () => pool.close(),
  };
}

/** The page, or a bad_response naming every field that does not fit (and the first in the message). */
function checked(what: string, status: number, json: unknown): SteamPage {
  const parsed = steamPage.safeParse(json);
  if (!parsed.success) throw badAnswer(what, status, parsed.error.issues);
  const page = parsed.data;
  const described = new Set((page.descriptions ?? []).map((d) => `${d.classid}_${d.instanceid}`));
  const issues: FieldIssue[] = [];
  (page.assets ?? []).forEach((a, i) => {
    if (!described.has(`${a.classid}_${a.instanceid}`)) issues.push({ field: `assets.${i}`, message: `has no description (class ${a.classid}, instance ${a.instanceid})` });
  });
  if ((page.more_items === 1 || page.more_items === true) && page.last_assetid === undefined) {
    issues.push({ field: 'last_assetid', message: 'is missing while more_items says there are more' });
  }
  if (issues.length > 0) throw badAnswer(what, status, issues);
  return page;
}

function badAnswer(what: string, status: number, issues: ReadonlyArray<z.core.$ZodIssue | FieldIssue>): ApiError {
  const shown: FieldIssue[] = issues.slice(0, 20).map((i) => ('field' in i ? i : { field: i.path.join('.') || '(body)', message: i.message }));
  const first = shown[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new ApiError('bad_response', `${what}: the answer does not fit: ${first?.field ?? '?'} ${first?.message ?? ''}${more}`, { status, issues: shown });
}

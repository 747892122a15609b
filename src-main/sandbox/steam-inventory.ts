import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../core/clock.ts';
import type { Faults } from './faults.ts';
import type { InventoryEndlessKind } from './inventory-faults.ts';
import type { SandboxCounters } from './request-log.ts';
import { econDescriptionOf, instanceIdOf, type EconDescription } from './steam-econ.ts';
import type { Asset } from './state/inventory.ts';
import type { World } from './state/world.ts';

/**
 * Steam's public community inventory, as the sandbox serves it beside the
 * service: `GET /inventory/<id64>/440/2?l=english&count=<n>&start_assetid=<id>`
 * answers `{ assets, descriptions, total_inventory_count, more_items,
 * last_assetid, success }` a page at a time, newest asset first, with no key.
 * Each seeded account has its own inventory (listed items stay in it; a sold
 * one leaves). The rules are Steam's: more than 2,000 a page is a 400 with a
 * `null` body, a private inventory a 403 with `null`, an empty one carries no
 * `assets` at all; the knobs add 429s, 5xx, late and malformed answers.
 */

const PATH = /^\/inventory\/(\d{1,20})\/(\d{1,10})\/(\d{1,10})\/?$/;
/** The largest page Steam accepts (it answers 400 above it). */
export const STEAM_MAX_PAGE = 2_000;
const DEFAULT_PAGE = 100;

/** One inventory request, for tests to assert on (how many calls, how far apart). */
export interface InventoryRequestRecord {
  /** Sandbox ms. */
  readonly at: number;
  readonly account: string;
  readonly startAssetId: string | null;
  readonly count: number | null;
  readonly status: number;
}

export interface InventoryRouteDeps {
  readonly world: World;
  readonly clock: Clock;
  readonly faults: Faults;
  /** The world moves on before each answer (sales take listed assets away); its counters count that. */
  readonly counters: SandboxCounters;
  readonly record: (entry: InventoryRequestRecord) => void;
  /** Told when a request arrives (+1) and when it is answered or dropped (-1). */
  readonly pending: (delta: 1 | -1) => void;
  readonly closing: AbortSignal;
}

export function isInventoryPath(pathname: string): boolean {
  return PATH.test(pathname);
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers?: Record<string, string>;
}

const json = (status: number, body: unknown): Answer => ({ status, text: JSON.stringify(body) });

export async function serveInventory(deps: InventoryRouteDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, account = '', appId, contextId] = PATH.exec(url.pathname) ?? [];
  const countText = url.searchParams.get('count');
  const start = url.searchParams.get('start_assetid');
  deps.pending(1);
  try {
    await answer(deps, req, res, url, account, appId, contextId, countText, start);
  } finally {
    deps.pending(-1);
  }
}

async function answer(
  deps: InventoryRouteDeps, req: IncomingMessage, res: ServerResponse, url: URL, account: string, appId: string | undefined,
  contextId: string | undefined, countText: string | null, start: string | null,
): Promise<void> {
  const delay = deps.faults.inventoryDelay(deps.clock.now());
  if (delay !== null) await deps.clock.sleep(delay, deps.closing).catch(() => undefined);
  if (deps.closing.aborted) {
    req.socket.destroy();
    return;
  }
  const now = deps.clock.now();
  deps.world.advance(now, deps.counters, deps.faults.listingSales());
  const reply = answerFor(deps, req.method ?? 'GET', account, appId, contextId, countText, start, now);
  deps.record({ at: now, account, startAssetId: start, count: countText === null ? null : Number(countText), status: reply.status });
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(reply.text)),
    Date: new Date(now).toUTCString(),
    ...reply.headers,
  });
  res.end(reply.text);
}

function answerFor(
  deps: InventoryRouteDeps, method: string, account: string, appId: string | undefined, contextId: string | undefined,
  countText: string | null, start: string | null, now: number,
): Answer {
  const { faults } = deps;
  if (method !== 'GET') return { ...json(405, null), headers: { Allow: 'GET' } };
  const tooMany = faults.inventory429(now);
  if (tooMany !== null) {
    return { ...json(429, null), ...(tooMany.retryAfterSec === null ? {} : { headers: { 'Retry-After': String(tooMany.retryAfterSec) } }) };
  }
  const failed = faults.inventoryServerError(now);
  if (failed !== null) return json(failed, null);
  if (faults.inventoryPrivate(account)) return json(403, null);
  const count = countText === null ? DEFAULT_PAGE : Number(countText);
  const startOk = start === null || /^\d{1,20}$/.test(start);
  if (appId !== '440' || contextId !== '2' || !Number.isInteger(count) || count < 1 || count > STEAM_MAX_PAGE || !startOk) return json(400, null);
  let body = page(deps.world, account, count, start);
  // Only a page that ends the inventory spends the endless knob: the pages before it are Steam's own.
  const endless = body.more_items === 1 ? null : faults.inventoryEndless(now);
  if (endless !== null) body = goOn(deps.world, account, count, start, body, endless);
  const lyingTotal = faults.inventoryLyingTotal(now);
  if (lyingTotal !== null) body = { ...body, total_inventory_count: lyingTotal };
  const broken = faults.inventoryMalformed(now);
  if (broken === 'invalid_json') {
    const text = JSON.stringify(body);
    return { status: 200, text: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
  }
  if (broken === 'missing_field') {
    const [first, ...rest] = body.assets ?? [];
    const { classid: _dropped, ...kept } = first ?? { classid: '' };
    return json(200, { ...body, assets: first === undefined ? [{}] : [kept, ...rest] });
  }
  if (broken === 'wrong_type') return json(200, { ...body, total_inventory_count: 'many' });
  return json(200, body);
}

interface SteamAsset {
  readonly appid: number;
  readonly contextid: string;
  readonly assetid: string;
  readonly classid: string;
  readonly instanceid: string;
  readonly amount: string;
}

interface SteamPage {
  assets?: SteamAsset[];
  descriptions?: EconDescription[];
  total_inventory_count: number;
  more_items?: 1;
  last_assetid?: string;
  success: 1;
  rwgrsn: -2;
}

/** One page, newest asset first, after `start` (exclusive) when given. */
function page(world: World, account: string, count: number, start: string | null): SteamPage {
  const owned = ownedBy(world, account);
  const total = owned.length;
  if (total === 0) return { total_inventory_count: 0, success: 1, rwgrsn: -2 };
  // Owned assets are in increasing ID order; Steam lists the newest first.
  const from = start === null ? owned.length - 1 : firstBelow(owned, start);
  const shown = owned.slice(Math.max(0, from + 1 - count), from + 1).reverse();
  return { ...pageOf(shown), total_inventory_count: total, ...(from + 1 > count ? moreAfter(shown) : {}), success: 1, rwgrsn: -2 };
}

/**
 * The endless knob's page: the page that ended the inventory says there is
 * more, and past it Steam answers as the knob's kind says (InventoryEndlessFault).
 */
function goOn(
  world: World, account: string, count: number, start: string | null, body: SteamPage, endless: { kind: InventoryEndlessKind; perPage: number | null },
): SteamPage {
  const owned = ownedBy(world, account);
  const last = body.assets?.at(-1);
  const oldest = owned[0];
  if (last !== undefined) return { ...body, more_items: 1, last_assetid: last.assetid };
  const below = BigInt(start ?? oldest?.asset_id ?? '1');
  if (endless.kind === 'empty') return { ...body, more_items: 1, last_assetid: String(below > 1n ? below - 1n : 1n) };
  if (oldest === undefined) return body;
  if (endless.kind === 'same') {
    const shown = owned.slice(0, count).reverse();
    return { ...body, ...pageOf(shown), ...moreAfter(shown) };
  }
  const size = Math.min(count, endless.perPage ?? count);
  // Each new asset is a copy of an owned one under an ID never sent: the IDs below the page's start.
  const fresh = Array.from({ length: size }, (_, i) => ({ ...(owned[i % owned.length] ?? oldest), asset_id: String(below - BigInt(i + 1)) }))
    .filter((a) => BigInt(a.asset_id) > 0n);
  const next = endless.kind === 'same_start' && start !== null ? { more_items: 1 as const, last_assetid: start } : moreAfter(fresh);
  return { ...body, ...pageOf(fresh), ...next };
}

function ownedBy(world: World, account: string): readonly Asset[] {
  return world.accounts.all().includes(account) ? world.inventory.owned(account) : [];
}

/** The assets and descriptions of these assets, in this order. */
function pageOf(shown: readonly Asset[]): Pick<SteamPage, 'assets' | 'descriptions'> {
  const descriptions = new Map<string, EconDescription>();
  const assets = shown.map((asset): SteamAsset => {
    const description = econDescriptionOf(asset.sku);
    descriptions.set(`${description.classid}_${description.instanceid}`, description);
    return { appid: 440, contextid: '2', assetid: asset.asset_id, classid: description.classid, instanceid: instanceIdOf(asset.sku), amount: '1' };
  });
  return { assets, descriptions: [...descriptions.values()] };
}

/** `more_items` with where the next page starts: after the last of these assets. */
function moreAfter(shown: readonly Asset[]): Pick<SteamPage, 'more_items' | 'last_assetid'> {
  const last = shown.at(-1);
  return last === undefined ? {} : { more_items: 1, last_assetid: last.asset_id };
}

/** Compares two asset IDs (digit strings) as numbers. */
function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** The index of the last asset whose ID is below `id` (-1 when none), in a list sorted by ID. */
function firstBelow(sorted: ReadonlyArray<{ readonly asset_id: string }>, id: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareIds(sorted[mid]?.asset_id ?? '', id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

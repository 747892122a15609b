import { afterEach, describe, expect, it } from 'vitest';
import type { EconItem } from 'tf2-item-format';
import { loadItemFormat } from '../../src-main/core/items/schema.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox, STEAM_MAX_PAGE } from '../../src-main/sandbox/index.ts';
import { manualClock } from './helpers.ts';

/**
 * Steam's community inventory as the sandbox serves it: the shape, the paging,
 * Steam's own refusals, the fault knobs, and descriptions that tf2-item-format
 * reads back to each asset's SKU.
 */

interface Page {
  assets?: Array<{ assetid: string; classid: string; instanceid: string; amount: string; appid: number; contextid: string }>;
  descriptions?: Array<Record<string, unknown> & { classid: string; instanceid: string }>;
  total_inventory_count: number;
  more_items?: number;
  last_assetid?: string;
  success: number;
}

let sandbox: Sandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

async function open(inventorySize = 250): Promise<Sandbox> {
  sandbox = await startSandbox({ clock: manualClock(), seed: 21, inventorySize, tradeSchedule: false });
  return sandbox;
}

async function get(sb: Sandbox, account: string, query: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${sb.url}/inventory/${account}/440/2?l=english&${query}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Every page of an inventory, following `last_assetid`. */
async function readAll(sb: Sandbox, account: string, count: number): Promise<Page[]> {
  const pages: Page[] = [];
  let start: string | undefined;
  for (;;) {
    const reply = await get(sb, account, `count=${count}${start ? `&start_assetid=${start}` : ''}`);
    expect(reply.status).toBe(200);
    const page = JSON.parse(reply.text) as Page;
    pages.push(page);
    if (page.more_items !== 1) return pages;
    start = page.last_assetid;
  }
}

/** The first `n` pages an inventory answers, following `last_assetid` while it says there are more. */
async function firstPages(sb: Sandbox, account: string, count: number, n: number): Promise<Page[]> {
  const pages: Page[] = [];
  let start: string | undefined;
  while (pages.length < n) {
    const page = JSON.parse((await get(sb, account, `count=${count}${start ? `&start_assetid=${start}` : ''}`)).text) as Page;
    pages.push(page);
    if (page.more_items !== 1) break;
    start = page.last_assetid;
  }
  return pages;
}

const idsOf = (page: Page | undefined) => (page?.assets ?? []).map((a) => a.assetid);

describe('sandbox: Steam community inventory', () => {
  it('serves each account its own inventory a page at a time, newest first, every owned asset once', async () => {
    const sb = await open();
    for (const account of [sb.accounts.main, ...sb.accounts.linked]) {
      const pages = await readAll(sb, account, 60);
      const ids = pages.flatMap((p) => (p.assets ?? []).map((a) => a.assetid));
      const owned = sb.admin.inventory(account).map((a) => a.asset_id);
      expect(ids).toEqual([...owned].reverse());
      expect(pages.every((p) => (p.assets?.length ?? 0) <= 60 && p.total_inventory_count === owned.length && p.success === 1)).toBe(true);
      expect(pages.at(-1)?.more_items).toBeUndefined();
    }
    // Accounts never share an asset.
    const all = [sb.accounts.main, ...sb.accounts.linked].flatMap((a) => sb?.admin.inventory(a).map((x) => x.asset_id) ?? []);
    expect(new Set(all).size).toBe(all.length);
  });

  it('describes every asset so that tf2-item-format reads back its SKU', async () => {
    const sb = await open();
    const { format } = loadItemFormat();
    const truth = new Map(sb.admin.inventory().map((a) => [a.asset_id, a.sku]));
    const [page] = await readAll(sb, sb.accounts.main, STEAM_MAX_PAGE);
    const descriptions = new Map((page?.descriptions ?? []).map((d) => [`${d.classid}_${d.instanceid}`, d]));
    expect(page?.assets?.length).toBe(truth.size);
    for (const asset of page?.assets ?? []) {
      const description = descriptions.get(`${asset.classid}_${asset.instanceid}`);
      expect(description).toBeDefined();
      const econ = { ...description, assetid: asset.assetid } as unknown as EconItem;
      const parsed = format.parseEconItem(econ, true, true, { useTrueDefindex: true });
      expect(format.toSKU(parsed)).toBe(truth.get(asset.assetid));
    }
  });

  it('keeps listed assets in the inventory and drops sold ones', async () => {
    const sb = await open();
    const [listed, sold] = sb.admin.seedListings(2);
    if (!listed || !sold) throw new Error('no listings seeded');
    sb.admin.setListingState(sold.listing_id, 'sold');
    sb.admin.takeAsset(sold.asset_id);
    const ids = (await readAll(sb, sb.accounts.main, STEAM_MAX_PAGE)).flatMap((p) => (p.assets ?? []).map((a) => a.assetid));
    expect(ids).toContain(listed.asset_id);
    expect(ids).not.toContain(sold.asset_id);
  });

  it('answers an empty inventory without assets, as Steam does', async () => {
    const sb = await open();
    const stranger = '76561197960265729';
    const reply = await get(sb, stranger, 'count=100');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ total_inventory_count: 0, success: 1, rwgrsn: -2 });
  });

  it("refuses what Steam refuses: more than 2,000 a page, another game's inventory, a bad start", async () => {
    const sb = await open();
    const main = sb.accounts.main;
    for (const query of [`count=${STEAM_MAX_PAGE + 1}`, 'count=0', 'count=10&start_assetid=abc']) {
      const reply = await get(sb, main, query);
      expect([reply.status, reply.text]).toEqual([400, 'null']);
    }
    const other = await fetch(`${sb.url}/inventory/${main}/730/2?count=10`);
    expect(other.status).toBe(400);
  });

  it('answers a private inventory 403 with null, for the accounts the knob names', async () => {
    const sb = await open();
    const [linked] = sb.accounts.linked;
    sb.faults.set({ inventoryPrivate: { accounts: [linked ?? ''] } });
    expect(await get(sb, linked ?? '', 'count=10')).toMatchObject({ status: 403, text: 'null' });
    expect((await get(sb, sb.accounts.main, 'count=10')).status).toBe(200);
  });

  it('answers 429 with or without Retry-After, for as many requests as the knob says', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventory429: { count: 1, retryAfterSec: 30 } });
    const limited = await get(sb, main, 'count=10');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '30']);
    expect((await get(sb, main, 'count=10')).status).toBe(200);
    sb.faults.set({ inventory429: { count: 2 } });
    const bare = await get(sb, main, 'count=10');
    expect([bare.status, bare.headers.get('retry-after'), bare.text]).toEqual([429, null, 'null']);
    expect(sb.log.inventoryRequests.map((r) => r.status)).toEqual([429, 200, 429]);
  });

  it('sends a Retry-After of any size, as a broken proxy does', async () => {
    const sb = await open();
    sb.faults.set({ inventory429: { count: 1, retryAfterSec: 9_999_999_999 } });
    const limited = await get(sb, sb.accounts.main, 'count=10');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '9999999999']);
  });

  it('never ends with the endless knob: past the last page, the oldest page again with the same last_assetid', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    const owned = sb.admin.inventory(main).map((a) => a.asset_id);
    sb.faults.set({ inventoryEndless: { kind: 'same' } });
    const pages = await firstPages(sb, main, 100, 6);
    expect(pages).toHaveLength(6);
    expect(pages.every((p) => p.more_items === 1)).toBe(true);
    // 250 items: two full pages and one of 50 are Steam's own; after them the oldest 100 come again and again.
    expect(pages.slice(0, 3).flatMap(idsOf)).toEqual([...owned].reverse());
    const oldest = owned.slice(0, 100).reverse();
    expect(pages.slice(3).map(idsOf)).toEqual([oldest, oldest, oldest]);
    expect(new Set(pages.slice(2).map((p) => p.last_assetid))).toEqual(new Set([owned[0]]));
  });

  it('never ends with the endless knob: empty pages past the last, each naming a new last_assetid', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventoryEndless: { kind: 'empty' } });
    const pages = await firstPages(sb, main, 100, 6);
    expect(pages.map((p) => idsOf(p).length)).toEqual([100, 100, 50, 0, 0, 0]);
    expect(pages.every((p) => p.more_items === 1 && p.total_inventory_count === 250)).toBe(true);
    const lasts = pages.slice(2).map((p) => p.last_assetid);
    expect(new Set(lasts).size).toBe(lasts.length);
  });

  it('never ends with the endless knob: past the last page, new asset IDs each time, each described', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventoryEndless: { kind: 'new_ids', perPage: 30 } });
    const pages = await firstPages(sb, main, 100, 8);
    expect(pages.map((p) => idsOf(p).length)).toEqual([100, 100, 50, 30, 30, 30, 30, 30]);
    const ids = pages.flatMap(idsOf);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of pages) {
      const described = new Set((p.descriptions ?? []).map((d) => `${d.classid}_${d.instanceid}`));
      expect((p.assets ?? []).every((a) => described.has(`${a.classid}_${a.instanceid}`))).toBe(true);
      expect(p.more_items).toBe(1);
    }
  });

  it('never ends with the endless knob: past the last page, new asset IDs naming the start asked as the next one', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventoryEndless: { kind: 'same_start', perPage: 30 } });
    const pages = await firstPages(sb, main, 100, 6);
    expect(pages.map((p) => idsOf(p).length)).toEqual([100, 100, 50, 30, 30, 30]);
    const oldest = sb.admin.inventory(main)[0]?.asset_id;
    expect(pages.slice(2).map((p) => p.last_assetid)).toEqual([oldest, oldest, oldest, oldest]);
    expect(pages.slice(3).map(idsOf).every((ids) => ids.every((id) => BigInt(id) < BigInt(oldest ?? '0')))).toBe(true);
  });

  it('says a wrong total_inventory_count with the lying-total knob, and ends as before once it is off', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventoryLyingTotal: { total: 2 } });
    const lying = await firstPages(sb, main, 100, 10);
    expect(lying.map((p) => p.total_inventory_count)).toEqual([2, 2, 2]);
    expect(lying.flatMap(idsOf)).toHaveLength(250);
    sb.faults.set({ inventoryLyingTotal: false });
    expect((await firstPages(sb, main, 2_000, 1))[0]?.total_inventory_count).toBe(250);
  });

  it('answers malformed bodies of three kinds', async () => {
    const sb = await open();
    const main = sb.accounts.main;
    sb.faults.set({ inventoryMalformed: { count: 1 } });
    const cut = await get(sb, main, 'count=10');
    expect(cut.status).toBe(200);
    expect(() => JSON.parse(cut.text) as unknown).toThrow();
    sb.faults.set({ inventoryMalformed: { count: 1, kind: 'missing_field' } });
    const missing = JSON.parse((await get(sb, main, 'count=10')).text) as Page;
    expect(missing.assets?.[0]).not.toHaveProperty('classid');
    sb.faults.set({ inventoryMalformed: { count: 1, kind: 'wrong_type' } });
    expect(JSON.parse((await get(sb, main, 'count=10')).text)).toMatchObject({ total_inventory_count: 'many' });
  });

  it('serves the same inventory from the same seed', async () => {
    const first = await open();
    const a = await readAll(first, first.accounts.main, STEAM_MAX_PAGE);
    await first.close();
    const second = await open();
    expect(await readAll(second, second.accounts.main, STEAM_MAX_PAGE)).toEqual(a);
  });
});

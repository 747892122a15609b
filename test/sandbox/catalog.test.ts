import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../src-main/core/items/index.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import { drawItem, drawTradeItem, inventoryMix } from '../../src-main/sandbox/catalog/catalog.ts';
import { streamFor } from '../../src-main/sandbox/catalog/prng.ts';
import { sku as skuField } from '../../src-shared/fields.ts';
import { manualClock, MINUTE } from './helpers.ts';

/** An instance of its own, so the test checks the catalog against the schema, not against itself. */
const names = createItemNames();

function described(sku: string) {
  const item = names.describe(sku);
  if (!item.known) throw new Error(`${sku} is not an item of the schema`);
  return item;
}

describe('sandbox catalog', () => {
  it('draws inventory assets the desk may send back, each a named item, covering every kind of name the desk renders', () => {
    const random = streamFor(7, 1);
    const drawn = Array.from({ length: 4_000 }, () => drawItem(random));
    for (const item of drawn) {
      expect(skuField.safeParse(item.sku).success).toBe(true);
      expect(item.name).toBe(described(item.sku).name);
    }
    const parts = drawn.map((i) => described(i.sku));
    // Unique, Strange, Genuine, Vintage, Haunted, Collector's, Decorated, and Unusual with an effect.
    expect(new Set(parts.map((p) => p.quality.id))).toEqual(new Set([6, 11, 1, 3, 13, 14, 15, 5]));
    expect(parts.filter((p) => p.quality.id === 5).every((p) => p.effect !== null)).toBe(true);
    expect(parts.some((p) => p.quality.id === 5 && p.strange)).toBe(true);
    expect(new Set(parts.map((p) => p.killstreak?.id ?? 0))).toEqual(new Set([0, 1, 2, 3]));
    expect(parts.some((p) => p.australium)).toBe(true);
    expect(parts.some((p) => p.festivized)).toBe(true);
    expect(parts.some((p) => !p.craftable)).toBe(true);
    // War paints and case skins, each with its wear and paint kit.
    expect(parts.some((p) => p.name.includes('War Paint') && p.wear !== null && p.paintKit !== null)).toBe(true);
    expect(parts.some((p) => p.defindex >= 15_000 && p.defindex < 16_000 && p.wear !== null && p.paintKit !== null)).toBe(true);
  });

  it('gives each account an inventory of its own mix: a keys bot of keys and metal, a hats bot of cosmetics with many Unusuals', () => {
    const share = (accountIndex: number, test: (sku: string) => boolean) => {
      const random = streamFor(7, 1, accountIndex);
      const drawn = Array.from({ length: 1_000 }, () => drawItem(random, inventoryMix(accountIndex)));
      return drawn.filter((i) => test(i.sku)).length / drawn.length;
    };
    const currency = (sku: string) => ['5021', '5002', '5001'].includes(sku.split(';')[0] ?? '');
    const unusual = (sku: string) => sku.split(';')[1] === '5';
    expect(share(2, currency)).toBeGreaterThan(0.6);
    expect(share(3, unusual)).toBeGreaterThan(0.2);
    expect(share(3, unusual)).toBeGreaterThan(3 * share(0, unusual));
  });

  it('draws trade items whose name, quality, effect and wear agree with the schema', () => {
    const random = streamFor(7, 2);
    const drawn = Array.from({ length: 3_000 }, () => drawTradeItem(random));
    for (const item of drawn) {
      const schema = described(item.sku);
      expect(item.name).toBe(schema.name);
      expect(item.quality).toBe(schema.quality.name);
      expect(item.effect).toBe(schema.effect === null ? null : String(schema.effect.id));
      expect(item.wear).toBe(schema.wear?.name ?? null);
      expect(Number.isInteger(item.price) && item.price > 0).toBe(true);
    }
    const parts = drawn.map((i) => described(i.sku));
    // The range a trader meets: every variant comes up in a few thousand draws.
    expect(parts.some((p) => p.quality.id === 5 && p.effect !== null)).toBe(true);
    expect(new Set(parts.map((p) => p.killstreak?.id ?? 0))).toEqual(new Set([0, 1, 2, 3]));
    expect(parts.some((p) => p.australium)).toBe(true);
    expect(parts.some((p) => p.festivized)).toBe(true);
    expect(parts.some((p) => !p.craftable)).toBe(true);
    expect(parts.some((p) => p.quality.id === 15 && p.wear !== null && p.paintKit !== null)).toBe(true);
  });

  it('draws the same items from the same seed', () => {
    const draw = () => {
      const random = streamFor(11, 3);
      return Array.from({ length: 200 }, () => [drawItem(random), drawTradeItem(random)]);
    };
    expect(draw()).toEqual(draw());
  });
});

describe('sandbox trades', () => {
  let sandbox: Sandbox | null = null;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = null;
  });

  it('name every item as the schema does', async () => {
    const clock = manualClock();
    sandbox = await startSandbox({ clock, seed: 3, tradeSchedule: true, inventorySize: 10 });
    const items = new Map<string, { name: string; sku: string }>();
    for (let i = 0; i < 12 * 12; i++) {
      for (const t of sandbox.admin.trades()) for (const item of t.items) items.set(`${item.sku}|${item.name}`, item);
      clock.advance(5 * MINUTE);
    }
    expect(items.size).toBeGreaterThan(10);
    for (const item of items.values()) expect(item.name).toBe(described(item.sku).name);
  });
});

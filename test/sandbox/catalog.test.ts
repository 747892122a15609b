import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../src-main/core/items/index.ts';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import { drawItem, drawTradeItem } from '../../src-main/sandbox/catalog.ts';
import { streamFor } from '../../src-main/sandbox/prng.ts';
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
  it('draws inventory assets with two-part SKUs that the desk may send back, each a named item', () => {
    const random = streamFor(7, 1);
    for (let i = 0; i < 2_000; i++) {
      const item = drawItem(random);
      expect(skuField.safeParse(item.sku).success).toBe(true);
      expect(item.name).toBe(described(item.sku).name);
    }
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

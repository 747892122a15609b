import { describe, expect, it } from 'vitest';
import { sku } from '../../src-shared/fields.ts';

describe('the SKU rule shared by client, drafts, CSV and simulator', () => {
  it('takes the documented two parts and the longer SKUs real items carry', () => {
    for (const ok of ['5021;6', '30911;5;u13', '15013;11;kt-3;w2;pk1', '205;11;australium;kt-3;festive', '5021;6;uncraftable']) {
      expect(sku.safeParse(ok).success, ok).toBe(true);
    }
  });

  it('refuses what is not a SKU, saying the shape', () => {
    for (const bad of ['5021', ';6', '5021;', '5021;;6', ' 5021;6', '5021;6 ', 'a'.repeat(199) + ';6']) {
      const r = sku.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/shape|too long/);
    }
  });
});

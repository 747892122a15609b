import { describe, expect, it } from 'vitest';
import { assetId, cents, quantity } from '../../src-shared/fields.ts';
import { isAssetId, readPrice, readQuantity } from '../../src-shared/typed-values.ts';

/** What a screen reads from typed text is always a value the drafts' schemas take. */
describe('typed values', () => {
  it('reads quantities as digits only, and each one read passes the drafts’ schema', () => {
    expect(readQuantity(' 12 ')).toEqual({ ok: true, value: 12 });
    for (const text of ['1e3', '1.0', '+3', '0x10', '0', '', '١٢', '9007199254740993']) expect(readQuantity(text).ok, text).toBe(false);
    for (const text of ['1', '9007199254740991']) {
      const r = readQuantity(text);
      expect(r.ok && quantity.safeParse(r.value).success).toBe(true);
    }
  });

  it('reads prices above $0.00 as whole cents the schema takes', () => {
    expect(readPrice('$1,234.50')).toEqual({ ok: true, value: 123_450 });
    expect(readPrice('0')).toEqual({ ok: false, problem: 'The price must be above $0.00.' });
    expect(readPrice('1e3')).toEqual({ ok: false, problem: 'Not a price: type it like 12.34.' });
    const r = readPrice('0.01');
    expect(r.ok && cents.safeParse(r.value).success).toBe(true);
  });

  it('agrees with the schema on asset IDs', () => {
    for (const text of ['1', '12345678901234567890', '123456789012345678901', '', 'a1', ' 1']) {
      expect(isAssetId(text), text).toBe(assetId.safeParse(text).success);
    }
  });
});

import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PricingState, SourceView } from '../../../src-shared/contract.ts';
import PriceSources from '../../../src-renderer/src/components/PriceSources.vue';
import { usePricingStore } from '../../../src-renderer/src/stores/pricing.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

/**
 * Each price source's line says how fresh its prices are in words: fresh with
 * when it was read, stale with the age of what it keeps, failing with why
 * (the source and the field named, as main words it).
 */

const HOUR = 3_600_000;
const source = (over: Partial<SourceView>): SourceView => ({
  id: 'pricedb',
  config: { kind: 'pricedb', name: 'pricedb.io', url: 'https://pricedb.io/api', refreshMinutes: 30, enabled: true, keyCents: 180, refinedPerKey: null },
  state: 'fresh', readAt: Date.now() - 150_000, prices: 320, problem: null, problemAt: null, nextReadAt: Date.now() + 28 * 60_000, oldestPricedAt: Date.now() - 120_000,
  ...over,
});

const stateWith = (s: SourceView, stamp = 1): PricingState => ({
  stamp, sources: [s], rules: [], runs: [], busy: false,
  settings: { feePercent: 0, schedule: { enabled: false, everyHours: 6 }, costGuard: { markUnderCost: true, marginPercent: 10 }, valueSource: null },
  schedule: { enabled: false, everyHours: 6, nextAt: null, running: false },
});

function mounted(s: SourceView) {
  usePricingStore().state = stateWith(s);
  return mount(PriceSources);
}

function lineOf(s: SourceView): string {
  return mounted(s).get(`tr[data-source="${s.id}"]`).text().replace(/\s+/g, ' ');
}

describe('price sources on screen', () => {
  let fake: FakeApi | null = null;
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => fake?.uninstall());

  it('turns a source off from its line, says it is not read, and says what pricedb.io is sent', async () => {
    const on = source({});
    const off = source({ config: { ...on.config, enabled: false }, nextReadAt: null });
    fake = installFakeApi({ 'pricing:changeSource': () => stateWith(off, 2) });
    const wrapper = mounted(on);
    const box = wrapper.get<HTMLInputElement>('tr[data-source="pricedb"] input[type="checkbox"]');
    expect(box.element.checked).toBe(true);
    expect(box.element.labels?.[0]?.textContent).toContain('Read every 30 min');
    expect(box.attributes('aria-label')).toBe('Read pricedb.io every 30 min');
    await box.setValue(false);
    await flushPromises();
    expect(fake.callsTo('pricing:changeSource')).toEqual([{ id: 'pricedb', config: { ...on.config, enabled: false } }]);
    expect(wrapper.get('tr[data-source="pricedb"]').text()).toContain('off: not read');
    expect(box.element.checked).toBe(false);
    expect(wrapper.text()).toContain('the desk sends pricedb.io the SKUs of your listings, buy orders and rules');
  });

  it('says a fresh source with when it was read and how many prices it holds', () => {
    const text = lineOf(source({}));
    expect(text).toMatch(/fresh\s*read 2 min ago/);
    expect(text).toContain('320 prices');
  });

  it('says a source that is down as stale, with the age of the prices it keeps and why its reads fail', () => {
    const problem = 'pricedb.io did not answer (connection refused)';
    const text = lineOf(source({ state: 'stale', readAt: Date.now() - 3.2 * HOUR, oldestPricedAt: Date.now() - 4.2 * HOUR, problem }));
    expect(text).toMatch(/stale\s*read 3 h ago; its prices date from 4 h ago/);
    expect(text).toContain(problem);
  });

  it('names the source and the field of a malformed answer', () => {
    const problem = 'pricedb.io: the answer does not fit at items[3].sell.keys: expected a number';
    const text = lineOf(source({ state: 'failing', problem }));
    expect(text).toContain('failing');
    expect(text).toContain(problem);
  });
});

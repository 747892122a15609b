import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { InventoryAccountState, InventoryState } from '../../../src-shared/contract.ts';
import InventoryStatus from '../../../src-renderer/src/components/InventoryStatus.vue';
import { LINKED, MAIN } from '../desk-data.ts';
import { badWording } from '../lib/wording-rules.ts';

/**
 * The line each account's read gets: the desk's own count while a read goes
 * on when Steam's total cannot be true, a read that stopped early with why,
 * and a wait whose cap is said.
 */

const account = (over: Partial<InventoryAccountState>): InventoryAccountState => ({
  account: MAIN, phase: 'done', readAt: Date.now() - 90_000, items: 30, progress: null, nextAt: null, problem: null, ...over,
});

const lineOf = (accounts: InventoryAccountState[], which: string) => {
  const state: InventoryState = { stamp: 1, accounts, facets: { qualities: [], effects: [], killstreaks: [], wears: [] } };
  const wrapper = mount(InventoryStatus, { props: { state, mainAccount: MAIN } });
  const li = wrapper.get(`li[data-account="${which}"]`);
  return { text: li.text(), trouble: li.classes().includes('trouble') };
};

describe('inventory status', () => {
  it('counts what was read when Steam’s total is not shown, never "of" a smaller total', () => {
    const { text } = lineOf([account({ phase: 'reading', progress: { read: 2_500, total: null } })], MAIN);
    expect(text).toBe('Main account: reading from Steam: 2,500 items so far…');
    expect(badWording(text)).toBeNull();
    expect(lineOf([account({ phase: 'reading', progress: { read: 2_000, total: 2_500 } })], MAIN).text).toContain('2,000 of 2,500 items');
  });

  it('says a read that stopped early, and why, beside what it read', () => {
    const message = 'The read stopped: Steam pointed the desk back to a page it had already read. What it read is shown; choose Refresh to read it again.';
    const { text, trouble } = lineOf([account({ account: LINKED, items: 2_510, problem: { kind: 'stopped', message, at: 1 } })], LINKED);
    expect(text).toBe(`Linked account …${LINKED.slice(-4)}: 2,510 items, read 1 min ago. ${message}`);
    expect(trouble).toBe(true);
    expect(badWording(text)).toBeNull();
    expect(lineOf([account({})], MAIN).trouble).toBe(false);
  });

  it('says a capped wait for Steam with when the next try goes', () => {
    const message = 'Steam is limiting how often inventories are read and asked for a wait of 9,999,999,999 seconds. The desk waits at most 15 minutes.';
    const nextAt = Date.now() + 15 * 60_000;
    const { text, trouble } = lineOf([account({ phase: 'waiting', nextAt, problem: { kind: 'rate_limited', message, at: 1 } })], MAIN);
    expect(text).toMatch(/waits at most 15 minutes\. Next try in (about )?1[4-6] min\.$/);
    expect(trouble).toBe(true);
  });
});

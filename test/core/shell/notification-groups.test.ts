import { describe, expect, it } from 'vitest';
import { noticeKey, planTradeNotices, type TradeForNotice } from '../../../src-main/core/shell/notification-groups.ts';

const item = (name: string, price: number, quantity = 1) => ({
  name, sku: '5021;6', quantity, price, quality: 'Unique', image_url: '', particle_url: '',
});

function trade(id: string, over: Partial<TradeForNotice> = {}): TradeForNotice {
  return { trade_type: 'market', trade_id: id, status: 'Action Required', total: 1234, items: [item('Mann Co. Supply Crate Key', 1234)], ...over };
}

describe('planTradeNotices', () => {
  it('announces each trade with its items, total and verification code', () => {
    const plan = planTradeNotices([trade('t1', { verification_code: 'K7Q2' })], new Set());
    expect(plan.notices).toEqual([{
      title: 'Accept a trade: you sold an item',
      body: 'Mann Co. Supply Crate Key · $12.34\nVerification code: K7Q2',
      open: { trade_type: 'market', trade_id: 't1' },
      trades: [{ trade_type: 'market', trade_id: 't1' }],
    }]);
    expect(plan.announced).toEqual(['market:t1:Action Required']);
  });

  it('says what to do for buy-order trades and phone confirmations', () => {
    const plan = planTradeNotices([
      trade('b1', { trade_type: 'buy_order', status: 'Action required', items: [item('Team Captain', 500, 2), item('Earbuds', 9000), item('Key', 1), item('Hat', 1)] }),
      trade('b2', { trade_type: 'buy_order', status: 'confirmation_required', verification_code: null }),
    ], new Set());
    expect(plan.notices.map((n) => n.title)).toEqual(['Send items for a buy order', 'Confirm a trade on your phone']);
    expect(plan.notices[0]?.body).toBe('Team Captain ×2, Earbuds, Key, +1 more · $12.34');
    expect(plan.notices[1]?.body).not.toContain('Verification');
  });

  it('folds a burst above the threshold into one notice with the sum', () => {
    const burst = ['a', 'b', 'c', 'd'].map((id, i) => trade(id, { total: 100 * (i + 1), items: [item(`Item ${id}`, 100)] }));
    const plan = planTradeNotices(burst, new Set());
    expect(plan.notices).toHaveLength(1);
    expect(plan.notices[0]).toMatchObject({
      title: '4 trades need action',
      body: '$10.00 in all: Item a, Item b, Item c, Item d',
      open: null,
    });
    expect(plan.notices[0]?.trades).toHaveLength(4);
    expect(planTradeNotices(burst.slice(0, 3), new Set()).notices).toHaveLength(3);
    expect(planTradeNotices(burst, new Set(), { groupAbove: 10 }).notices).toHaveLength(4);
  });

  it('never announces the same trade and status twice, but does a new status', () => {
    const first = planTradeNotices([trade('t1')], new Set());
    const again = planTradeNotices([trade('t1'), trade('t1')], new Set(first.announced));
    expect(again.notices).toEqual([]);
    const moved = planTradeNotices([trade('t1', { status: 'confirmation_required' })], new Set(first.announced));
    expect(moved.notices).toHaveLength(1);
    expect(planTradeNotices([trade('t2'), trade('t2')], new Set()).notices).toHaveLength(1);
  });

  it('shows nothing when muted, yet counts the trades as announced', () => {
    const plan = planTradeNotices([trade('t1')], new Set(), { muted: true });
    expect(plan.notices).toEqual([]);
    expect(plan.announced).toEqual([noticeKey(trade('t1'))]);
  });
});

describe('young trade partners', () => {
  it('warns in the body when the partner\'s account is young, with its age', () => {
    const plan = planTradeNotices([trade('y1', { youngPartner: true, partnerAgeDays: 3 }), trade('o1', { youngPartner: false, partnerAgeDays: 900 })], new Set());
    expect(plan.notices[0]?.body).toBe("Mann Co. Supply Crate Key · $12.34\n⚠ Partner's account is 3 days old: check before trading");
    expect(plan.notices[1]?.body).toBe('Mann Co. Supply Crate Key · $12.34');
  });

  it('says a day, and counts young partners in a grouped notice', () => {
    expect(planTradeNotices([trade('y1', { youngPartner: true, partnerAgeDays: 1 })], new Set()).notices[0]?.body).toContain("Partner's account is 1 day old");
    const burst = ['a', 'b', 'c', 'd'].map((id, i) => trade(id, { youngPartner: i < 2, partnerAgeDays: 2 }));
    expect(planTradeNotices(burst, new Set()).notices[0]?.body).toMatch(/\n⚠ 2 of them with a young partner account: check before trading$/);
  });
});

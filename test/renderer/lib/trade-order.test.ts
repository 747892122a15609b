import { describe, expect, it } from 'vitest';
import type { WatchedTradeView } from '../../../src-shared/contract.ts';
import { itemDetails, orderTrades, statusTone } from '../../../src-renderer/src/lib/trade-order.ts';

function trade(id: string, ts: number, needsAction: boolean, status = 'Waiting for seller'): WatchedTradeView {
  return {
    trade_type: 'market', user_id: '1', trade_id: id, timestamp: ts, status, total: 0, items: [], raw_status: 'SENT',
    buyer_id: '2', supplier_id: '1', buyer_steam_creation_time: 0, supplier_steam_creation_time: 0, partner_steam_creation_time: 0,
    verification_code: null, name_tax_reduction: false, needsAction, partnerAgeDays: 100, youngPartner: false,
  };
}

describe('trade ordering', () => {
  it('puts trades needing action first, newest first within each group', () => {
    const ordered = orderTrades([trade('1', 100, false), trade('2', 50, true), trade('3', 300, false), trade('4', 80, true)]);
    expect(ordered.map((t) => t.trade_id)).toEqual(['4', '2', '3', '1']);
  });
  it('colours both spellings of “action required” alike', () => {
    expect(statusTone('Action Required')).toBe('action');
    expect(statusTone('Action required')).toBe('action');
    expect(statusTone('confirmation_required')).toBe('warn');
    expect(statusTone('Something new')).toBe('muted');
  });
  it('describes an item by quality, effect and wear', () => {
    expect(itemDetails({ quality: 'Unusual', particle_url: '13', wear: 'Field-Tested' })).toBe('Unusual · effect 13 · Field-Tested');
    expect(itemDetails({ quality: 'Unique', particle_url: null })).toBe('Unique');
    expect(itemDetails({ quality: 'Unique', particle_url: '' })).toBe('Unique');
  });
});

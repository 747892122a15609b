import { describe, expect, it } from 'vitest';
import type { WatchedTradeView } from '../../../src-shared/contract.ts';
import { itemDetails, orderTrades, rawStatusWords, statusWords } from '../../../src-renderer/src/lib/trade-order.ts';

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
  it('says both spellings of “action required” one way, and confirmation_required in words', () => {
    expect(statusWords('Action Required', 'market')).toMatchObject({ label: 'Action required', tone: 'action', todo: 'You sold: accept the trade offer.' });
    expect(statusWords('Action required', 'buy_order')).toMatchObject({ label: 'Action required', tone: 'action', todo: 'You fill a buy order: send the trade offer.' });
    expect(statusWords('confirmation_required', 'buy_order')).toMatchObject({ label: 'Confirm on mobile', tone: 'warn' });
    expect(statusWords('Waiting for seller', 'market').label).toBe('Waiting for the seller');
    expect(statusWords('SOMETHING_new', 'market')).toMatchObject({ label: 'Something new', tone: 'muted', todo: null });
    expect(rawStatusWords('SENT')).toBe('offer sent');
    expect(rawStatusWords('CONFIRMATION_REQUIRED')).toBe('offer waits for mobile confirmation');
  });
  it('describes an item by quality, effect, killstreak and wear, the effect named when the schema knows it', () => {
    expect(itemDetails({ quality: 'Unusual', particle_url: '13', wear: 'Field-Tested' })).toBe('Unusual · effect #13 · Field-Tested');
    expect(itemDetails({ quality: 'Unique', particle_url: null })).toBe('Unique');
    expect(itemDetails({ quality: 'Unique', particle_url: '' })).toBe('Unique');
    const item = { effect: 'Burning Flames', killstreak: 'Professional Killstreak', australium: false, festivized: true, craftable: false, wear: null };
    expect(itemDetails({ quality: 'Unusual', particle_url: '13', item })).toBe('Unusual · Burning Flames · Professional Killstreak · Festivized · Non-Craftable');
    // What the name already says is not said twice.
    expect(itemDetails({ name: 'Non-Craftable Burning Flames Team Captain', quality: 'Unusual', particle_url: '13', item })).toBe('Unusual · Professional Killstreak · Festivized');
  });
});

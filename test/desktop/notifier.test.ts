import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TradeForNotice } from '../../src-main/core/shell/notification-groups.ts';
import { app, Notification, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { createNotifier, prepareNotifications } = await import('../../src-main/main-thread/desktop/notifier.ts');

const trade = (id: string, over: Partial<TradeForNotice> = {}): TradeForNotice => ({
  trade_type: 'market', trade_id: id, status: 'Action Required', total: 250,
  items: [{ name: `Hat ${id}`, sku: '1;6', quantity: 1, price: 250, quality: 'Unique', image_url: '', particle_url: '' }],
  ...over,
});

let muted = false;
const onOpen = vi.fn();
beforeEach(() => { resetFakeElectron(); muted = false; onOpen.mockClear(); });

const notifier = (over: Partial<Parameters<typeof createNotifier>[0]> = {}) =>
  createNotifier({ muted: () => muted, onOpen, iconPath: '/icons/256x256.png', ...over });

describe('createNotifier', () => {
  it('shows one notification per trade, with items, total and code, and opens the trade on click', () => {
    const n = notifier();
    expect(n.notify([trade('t1', { verification_code: 'Q9' }), trade('t2')])).toBe(2);
    expect(Notification.instances.map((x) => [x.shown, x.options.title, x.options.body])).toEqual([
      [true, 'Accept a trade: you sold an item', 'Hat t1 · $2.50\nVerification code: Q9'],
      [true, 'Accept a trade: you sold an item', 'Hat t2 · $2.50'],
    ]);
    expect(Notification.instances[0]?.options.icon).toBe('/icons/256x256.png');
    Notification.instances[1]?.emit('click');
    expect(onOpen).toHaveBeenCalledExactlyOnceWith({ trade_type: 'market', trade_id: 't2' });
  });

  it('groups a burst into one notification that opens the list', () => {
    const n = notifier();
    expect(n.notify(['a', 'b', 'c', 'd', 'e'].map((id) => trade(id)))).toBe(1);
    expect(Notification.instances[0]?.options).toMatchObject({ title: '5 trades need action', body: expect.stringContaining('$12.50 in all') });
    Notification.instances[0]?.emit('click');
    expect(onOpen).toHaveBeenCalledExactlyOnceWith(null);
  });

  it('never shows the same trade and status twice', () => {
    const n = notifier();
    n.notify([trade('t1')]);
    expect(n.notify([trade('t1')])).toBe(0);
    expect(n.notify([trade('t1', { status: 'confirmation_required' })])).toBe(1);
    // Back to the first status while still pending: already announced.
    n.retainOnly([{ trade_type: 'market', trade_id: 't1' }]);
    expect(n.notify([trade('t1')])).toBe(0);
    // Gone, then pending again: news.
    n.retainOnly([]);
    expect(n.notify([trade('t1')])).toBe(1);
  });

  it('stays quiet when muted, and does not replay those trades after unmuting', () => {
    const n = notifier();
    muted = true;
    expect(n.notify([trade('t1')])).toBe(0);
    muted = false;
    expect(n.notify([trade('t1'), trade('t2')])).toBe(1);
    expect(Notification.instances).toHaveLength(1);
  });

  it('shows nothing where the system has no notifications', () => {
    Notification.supported = false;
    expect(notifier().notify([trade('t1')])).toBe(0);
    expect(Notification.instances).toHaveLength(0);
  });

  it('skips trades announced before a restart', () => {
    expect(notifier({ announced: ['market:t1:Action Required'] }).notify([trade('t1')])).toBe(0);
  });
});

describe('prepareNotifications', () => {
  it('sets the AppUserModelID on Windows only', () => {
    prepareNotifications('io.marketplacedesk.app', 'linux');
    expect(app.setAppUserModelId).not.toHaveBeenCalled();
    prepareNotifications('io.marketplacedesk.app', 'win32');
    expect(app.setAppUserModelId).toHaveBeenCalledExactlyOnceWith('io.marketplacedesk.app');
  });
});

describe('the desk\'s own notices', () => {
  const notice = { title: '3 repriced changes wait for you: marked by the price guard', body: '3 deep cut: in “Scheduled reprice”, for you to review and apply.', view: 'pricing' as const };

  it('shows a notice and opens its screen on click; nothing while muted', () => {
    const onOpenView = vi.fn();
    const n = notifier({ onOpenView });
    expect(n.notice(notice)).toBe(true);
    expect(Notification.instances.map((x) => [x.shown, x.options.title, x.options.body])).toEqual([[true, notice.title, notice.body]]);
    Notification.instances[0]?.emit('click');
    expect(onOpenView).toHaveBeenCalledExactlyOnceWith('pricing');
    expect(onOpen).not.toHaveBeenCalled();
    muted = true;
    expect(n.notice(notice)).toBe(false);
    expect(Notification.instances).toHaveLength(1);
  });
});

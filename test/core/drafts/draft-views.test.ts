import { describe, expect, it } from 'vitest';
import { createDraftViews } from '../../../src-main/core/drafts/draft-views.ts';

const move = (listings: number, created = 0) => ({ listings: { created, changed: listings }, buyOrders: { created: 0, changed: 1 } });

describe('draft views: the version of what the screens read, and how its counts moved', () => {
  it('sums the known moves since a version, per table', () => {
    const views = createDraftViews();
    expect(views.version('d')).toBe(0);
    views.step('d', move(2, 1));
    views.step('d', move(-1));
    expect(views.version('d')).toBe(2);
    expect(views.movedSince('d', 0, 'listings')).toEqual({ created: 1, changed: 1 });
    expect(views.movedSince('d', 1, 'listings')).toEqual({ created: 0, changed: -1 });
    expect(views.movedSince('d', 0, 'buyOrders')).toEqual({ created: 0, changed: 2 });
    expect(views.movedSince('d', 2, 'listings')).toEqual({ created: 0, changed: 0 });
    // Another draft's versions are its own.
    expect(views.movedSince('e', 0, 'listings')).toEqual({ created: 0, changed: 0 });
    expect(views.movedSince('d', 3, 'listings')).toBeNull();
  });

  it('knows nothing across a move of unknown size, and starts again after it', () => {
    const views = createDraftViews();
    views.step('d', move(2));
    views.step('d', null);
    views.step('d', move(5));
    expect(views.movedSince('d', 0, 'listings')).toBeNull();
    expect(views.movedSince('d', 1, 'listings')).toBeNull();
    expect(views.movedSince('d', 2, 'listings')).toEqual({ created: 0, changed: 5 });
  });

  it('knows a table\'s moves apart from the other\'s: a write that counted one table only leaves the other not known', () => {
    const views = createDraftViews();
    views.step('d', { listings: { created: 1, changed: 1 } });
    expect(views.movedSince('d', 0, 'listings')).toEqual({ created: 1, changed: 1 });
    expect(views.movedSince('d', 0, 'buyOrders')).toBeNull();
    expect(views.movedSince('d', 1, 'buyOrders')).toEqual({ created: 0, changed: 0 });
  });

  it('tells which tables serve a draft\'s counts', () => {
    const views = createDraftViews();
    expect(views.watched('d', 'listings')).toBe(false);
    views.watch('d', 'listings');
    expect(views.watched('d', 'listings')).toBe(true);
    expect(views.watched('d', 'buyOrders')).toBe(false);
    expect(views.watched('e', 'listings')).toBe(false);
  });

  it('keeps the last thousand steps: a version older than them counts again', () => {
    const views = createDraftViews();
    for (let i = 0; i < 1_005; i++) views.step('d', move(1));
    expect(views.movedSince('d', 4, 'listings')).toBeNull();
    expect(views.movedSince('d', 5, 'listings')).toEqual({ created: 0, changed: 1_000 });
  });
});

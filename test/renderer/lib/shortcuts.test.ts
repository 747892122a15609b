import { describe, expect, it } from 'vitest';
import { hashFor, normalizeView, viewFromHash } from '../../../src-renderer/src/lib/nav.ts';
import { matchShortcut } from '../../../src-renderer/src/lib/shortcuts.ts';

describe('navigation and shortcuts', () => {
  const key = (over: Partial<KeyboardEventInit & { code: string }>) => ({ key: '', code: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...over });
  it('maps hashes to screens and back', () => {
    expect(viewFromHash('#/trades')).toBe('trades');
    expect(viewFromHash('#buy-orders')).toBe('buy-orders');
    expect(viewFromHash('#/nope')).toBe('overview');
    expect(hashFor('drafts')).toBe('#/drafts');
    expect(normalizeView('buyOrders')).toBe('buy-orders');
    expect(normalizeView('Trades')).toBe('trades');
  });
  it('Alt+1..9 navigates, by key code so layouts that type symbols still work', () => {
    expect(matchShortcut(key({ altKey: true, key: '¡', code: 'Digit1' }), false)).toEqual({ kind: 'navigate', view: 'overview' });
    expect(matchShortcut(key({ altKey: true, key: '5', code: 'Digit5' }), false)).toEqual({ kind: 'navigate', view: 'history' });
    expect(matchShortcut(key({ altKey: true, key: '9', code: 'Digit9' }), false)).toEqual({ kind: 'navigate', view: 'settings' });
    expect(matchShortcut(key({ altKey: true, key: '0', code: 'Digit0' }), false)).toBeNull();
  });
  it('Ctrl/Cmd+F and / search; / and Ctrl+A belong to a text field when typing', () => {
    expect(matchShortcut(key({ ctrlKey: true, key: 'f' }), true)).toEqual({ kind: 'search' });
    expect(matchShortcut(key({ metaKey: true, key: 'F' }), false)).toEqual({ kind: 'search' });
    expect(matchShortcut(key({ key: '/' }), false)).toEqual({ kind: 'search' });
    expect(matchShortcut(key({ key: '/' }), true)).toBeNull();
    expect(matchShortcut(key({ ctrlKey: true, key: 'a' }), false)).toEqual({ kind: 'selectAll' });
    expect(matchShortcut(key({ ctrlKey: true, key: 'a' }), true)).toBeNull();
    expect(matchShortcut(key({ metaKey: true, key: 'Enter' }), false)).toEqual({ kind: 'apply' });
  });
});

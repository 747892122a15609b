import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('settings repo', () => {
  it('round-trips JSON values and falls back when a stored value no longer fits', () => {
    t = tempStore();
    const { settings } = t.repos;
    settings.set('poll', { seconds: 90 });
    settings.set('theme', 'neon');
    t.reopen();
    const s = t.repos.settings;
    expect(s.get('poll', z.object({ seconds: z.number() }), { seconds: 60 })).toEqual({ seconds: 90 });
    expect(s.get('theme', z.enum(['light', 'dark']), 'light')).toBe('light');
    expect(s.get('absent', z.number(), 7)).toBe(7);
    s.delete('poll');
    expect(s.keys()).toEqual(['theme']);
  });
});

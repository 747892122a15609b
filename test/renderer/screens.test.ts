import { describe, expect, it } from 'vitest';
import { loadedScreen, loadScreen } from '../../src-renderer/src/screens.ts';

describe('the screens’ code', () => {
  it('is loaded when a screen is first asked for, once, and then shown at once', async () => {
    expect(loadedScreen('trades')).toBeNull();
    const first = loadScreen('trades');
    expect(loadScreen('trades')).toBe(first);
    await first;
    expect(loadedScreen('trades')).not.toBeNull();
    // Another screen's code is not loaded with it.
    expect(loadedScreen('settings')).toBeNull();
  });
});

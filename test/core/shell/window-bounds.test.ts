import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZING, restoreWindowBounds } from '../../../src-main/core/shell/window-bounds.ts';

const laptop = { x: 0, y: 0, width: 1440, height: 876 };
const external = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('restoreWindowBounds', () => {
  it('opens at the default size, centred, when nothing was saved', () => {
    expect(restoreWindowBounds(null, [external])).toEqual({
      bounds: { width: DEFAULT_WINDOW_SIZING.width, height: DEFAULT_WINDOW_SIZING.height }, maximized: false,
    });
  });

  it('keeps a saved place that is on a present display', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 900 }, maximized: true };
    expect(restoreWindowBounds(saved, [laptop, external])).toEqual(saved);
  });

  it('centres on the primary display when the saved display is gone', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 700 }, maximized: false };
    expect(restoreWindowBounds(saved, [laptop])).toEqual({ bounds: { width: 1200, height: 700 }, maximized: false });
  });

  it('shrinks a window larger than its display and pulls it back inside', () => {
    const saved = { bounds: { x: 1000, y: -50, width: 2000, height: 1200 }, maximized: false };
    expect(restoreWindowBounds(saved, [laptop])).toEqual({
      bounds: { x: 0, y: 0, width: 1440, height: 876 }, maximized: false,
    });
  });

  it('moves a window that hangs over the edge of its display fully onto it', () => {
    const saved = { bounds: { x: 3600, y: 1000, width: 1100, height: 700 }, maximized: false };
    expect(restoreWindowBounds(saved, [laptop, external]).bounds).toEqual({ x: 2900, y: 700, width: 1100, height: 700 });
  });

  it('grows a saved size below the minimum, but never past the screen', () => {
    const saved = { bounds: { x: 10, y: 10, width: 300, height: 200 }, maximized: false };
    expect(restoreWindowBounds(saved, [laptop]).bounds).toEqual({ x: 10, y: 10, width: 1024, height: 700 });
    const tiny = { x: 0, y: 0, width: 800, height: 500 };
    expect(restoreWindowBounds(saved, [tiny]).bounds).toEqual({ x: 0, y: 0, width: 800, height: 500 });
  });
});

import { z } from 'zod';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * Where the main window reopens. The trader's last size and place are kept,
 * but a monitor may have been unplugged or its resolution changed since, so
 * saved bounds are checked against the displays present now: a window is
 * never restored off-screen or larger than the screen it lands on.
 */
export const rectSchema = lazySchema(() => z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
}));
export type Rect = z.infer<typeof rectSchema>;

export const savedWindowStateSchema = z.object({
  /** The normal (not maximized) bounds, so un-maximizing restores them. */
  bounds: rectSchema,
  maximized: z.boolean(),
});
export type SavedWindowState = z.infer<typeof savedWindowStateSchema>;

export interface WindowSizing {
  readonly width: number;
  readonly height: number;
  readonly minWidth: number;
  readonly minHeight: number;
}

/** The screens are laid out for 1024×700 and up (the ledger tables scroll sideways below their columns' minimums). */
export const DEFAULT_WINDOW_SIZING: WindowSizing = { width: 1280, height: 800, minWidth: 1024, minHeight: 700 };

export interface RestoredWindow {
  /** x and y are absent when the window should be centred by the system. */
  readonly bounds: { x?: number; y?: number; width: number; height: number };
  readonly maximized: boolean;
}

/**
 * Bounds to open the window with, from the saved state and the work areas of
 * the displays present now (primary first). The saved place is kept when it
 * overlaps a display; the window is then moved and shrunk only as much as
 * needed to fit that display. Without an overlap it is centred on the primary.
 */
export function restoreWindowBounds(
  saved: SavedWindowState | null,
  workAreas: readonly Rect[],
  sizing: WindowSizing = DEFAULT_WINDOW_SIZING,
): RestoredWindow {
  const primary = workAreas[0];
  if (!saved) {
    return { bounds: fitSize(sizing.width, sizing.height, primary, sizing), maximized: false };
  }
  const target = largestOverlap(saved.bounds, workAreas);
  if (!target) {
    return { bounds: fitSize(saved.bounds.width, saved.bounds.height, primary, sizing), maximized: saved.maximized };
  }
  const { width, height } = fitSize(saved.bounds.width, saved.bounds.height, target, sizing);
  const x = clamp(saved.bounds.x, target.x, target.x + target.width - width);
  const y = clamp(saved.bounds.y, target.y, target.y + target.height - height);
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}

function fitSize(width: number, height: number, area: Rect | undefined, sizing: WindowSizing): { width: number; height: number } {
  const maxW = area ? area.width : Number.POSITIVE_INFINITY;
  const maxH = area ? area.height : Number.POSITIVE_INFINITY;
  // The minimum wins over the screen only on a screen smaller than the minimum.
  return {
    width: Math.max(Math.min(width, maxW), Math.min(sizing.minWidth, maxW)),
    height: Math.max(Math.min(height, maxH), Math.min(sizing.minHeight, maxH)),
  };
}

function largestOverlap(rect: Rect, areas: readonly Rect[]): Rect | null {
  let best: Rect | null = null;
  let bestArea = 0;
  for (const area of areas) {
    const w = Math.min(rect.x + rect.width, area.x + area.width) - Math.max(rect.x, area.x);
    const h = Math.min(rect.y + rect.height, area.y + area.height) - Math.max(rect.y, area.y);
    if (w > 0 && h > 0 && w * h > bestArea) {
      best = area;
      bestArea = w * h;
    }
  }
  return best;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

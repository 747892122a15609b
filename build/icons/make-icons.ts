/**
 * Draws the app's icons: the emblem (a gold coin crossed by a heartbeat line
 * on an indigo tile: the desk keeps the account's pulse) at the sizes the
 * installers need, and the tray icons, one per state. Pure Node: shapes are
 * signed-distance functions, edges anti-aliased by coverage, PNGs written
 * with node:zlib. Run `node build/icons/make-icons.ts` after changing it;
 * a test checks the committed PNGs match this script.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];
type Point = readonly [number, number];
/** A shape's signed distance at a point, in the icon's 0..1 units (negative inside). */
type Shape = (x: number, y: number) => number;

interface Layer {
  readonly shape: Shape;
  readonly color: Rgb | ((x: number, y: number) => Rgb);
}

const INDIGO_TOP: Rgb = [52, 56, 150];
const INDIGO_BOTTOM: Rgb = [24, 26, 74];
const GOLD: Rgb = [245, 183, 0];
const WHITE: Rgb = [255, 255, 255];

export const STATE_COLORS = {
  active: [47, 191, 113],
  expiring: [240, 160, 32],
  lapsed: [229, 72, 77],
  off: [138, 143, 152],
  attention: [59, 130, 246],
} as const satisfies Record<string, Rgb>;

// ---- shapes -----------------------------------------------------------------

const circle = (cx: number, cy: number, r: number): Shape => (x, y) => Math.hypot(x - cx, y - cy) - r;

function roundRect(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, hx = (x1 - x0) / 2 - r, hy = (y1 - y0) / 2 - r;
  return (x, y) => {
    const qx = Math.abs(x - cx) - hx, qy = Math.abs(y - cy) - hy;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
}

/** A stroked polyline with round joins and caps. */
function stroke(points: readonly Point[], width: number): Shape {
  return (x, y) => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1] as Point;
      const [bx, by] = points[i] as Point;
      const dx = bx - ax, dy = by - ay;
      const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
    }
    return best - width / 2;
  };
}

const union = (...shapes: Shape[]): Shape => (x, y) => Math.min(...shapes.map((s) => s(x, y)));
const subtract = (a: Shape, b: Shape): Shape => (x, y) => Math.max(a(x, y), -b(x, y));

/** The heartbeat: flat, a spike up, a deeper spike down, flat again. */
const PULSE: readonly Point[] = [[0.08, 0.54], [0.34, 0.54], [0.42, 0.36], [0.52, 0.72], [0.6, 0.46], [0.66, 0.54], [0.92, 0.54]];

// ---- rendering --------------------------------------------------------------

function render(size: number, layers: readonly Layer[]): Buffer {
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) / size, y = (py + 0.5) / size;
      let r = 0, g = 0, b = 0, a = 0;
      for (const layer of layers) {
        // Coverage from the distance in pixels: a one-pixel soft edge at any size.
        const cover = Math.min(1, Math.max(0, 0.5 - layer.shape(x, y) * size));
        if (cover === 0) continue;
        const [lr, lg, lb] = typeof layer.color === 'function' ? layer.color(x, y) : layer.color;
        // "Over" compositing, premultiplied.
        r = lr * cover + r * (1 - cover);
        g = lg * cover + g * (1 - cover);
        b = lb * cover + b * (1 - cover);
        a = cover + a * (1 - cover);
      }
      const o = (py * size + px) * 4;
      rgba[o] = a > 0 ? Math.round(r / a) : 0;
      rgba[o + 1] = a > 0 ? Math.round(g / a) : 0;
      rgba[o + 2] = a > 0 ? Math.round(b / a) : 0;
      rgba[o + 3] = Math.round(a * 255);
    }
  }
  return encodePng(size, size, rgba);
}

function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

// ---- the icons ----------------------------------------------------------------

function emblem(size: number): Buffer {
  // Thin lines vanish at 16 px: strokes get at least ~1.6 px there.
  const line = Math.max(0.07, 1.6 / size);
  return render(size, [
    { shape: roundRect(0.04, 0.04, 0.96, 0.96, 0.2), color: (_x, y) => mix(INDIGO_TOP, INDIGO_BOTTOM, y) },
    { shape: circle(0.5, 0.5, 0.33), color: GOLD },
    { shape: subtract(circle(0.5, 0.5, 0.27), circle(0.5, 0.5, 0.27 - Math.max(0.02, 1 / size))), color: [214, 150, 0] },
    { shape: stroke(PULSE, line), color: WHITE },
  ]);
}

type TrayState = keyof typeof STATE_COLORS;

function trayIcon(state: TrayState, size: number): Buffer {
  const line = Math.max(0.13, 2 / size);
  const glyph: Shape =
    state === 'lapsed'
      ? stroke([[0.2, 0.52], [0.8, 0.52]], line) // flat-lined
      : state === 'off'
        ? union(roundRect(0.33, 0.3, 0.45, 0.72, 0.02), roundRect(0.55, 0.3, 0.67, 0.72, 0.02)) // paused
        : stroke([[0.14, 0.54], [0.34, 0.54], [0.42, 0.3], [0.54, 0.76], [0.62, 0.46], [0.68, 0.54], [0.86, 0.54]], line);
  const layers: Layer[] = [
    { shape: circle(0.5, 0.5, 0.46), color: STATE_COLORS[state] },
    { shape: glyph, color: WHITE },
  ];
  if (state === 'attention') {
    // A badge: a trade waits.
    layers.push({ shape: circle(0.8, 0.2, 0.2), color: WHITE }, { shape: circle(0.8, 0.2, 0.14), color: [240, 72, 56] });
  }
  return render(size, layers);
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export const APP_ICON_SIZES = [16, 32, 256, 512] as const;

/** Every icon file, by path relative to build/icons. */
export function renderIcons(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const size of APP_ICON_SIZES) files.set(`${size}x${size}.png`, emblem(size));
  for (const state of Object.keys(STATE_COLORS) as TrayState[]) {
    files.set(`tray/${state}.png`, trayIcon(state, 16));
    files.set(`tray/${state}@2x.png`, trayIcon(state, 32));
  }
  return files;
}

if (import.meta.main) {
  const dir = dirname(fileURLToPath(import.meta.url));
  for (const [name, png] of renderIcons()) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), png);
    console.log(`${name} ${png.length} bytes`);
  }
}

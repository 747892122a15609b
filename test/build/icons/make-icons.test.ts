import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { APP_ICON_SIZES, renderIcons } from '../../../build/icons/make-icons.ts';
import { TRAY_ICON_NAMES } from '../../../src-main/core/shell/tray-state.ts';

const dir = join(import.meta.dirname, '..', '..', '..', 'build', 'icons');

/** Width, height and the inflated pixel rows: what the picture is, whatever zlib compressed it to. */
function decode(png: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8, width = 0, height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

describe('make-icons', () => {
  const icons = renderIcons();

  it('draws the app icon at every installer size and a tray icon for every tray state', () => {
    expect([...icons.keys()].sort()).toEqual([
      ...APP_ICON_SIZES.map((s) => `${s}x${s}.png`),
      ...TRAY_ICON_NAMES.flatMap((n) => [`tray/${n}.png`, `tray/${n}@2x.png`]),
    ].sort());
    for (const size of APP_ICON_SIZES) {
      const { width, height } = decode(icons.get(`${size}x${size}.png`) as Buffer);
      expect([width, height]).toEqual([size, size]);
    }
    expect(decode(icons.get('tray/active@2x.png') as Buffer).width).toBe(32);
  });

  it('matches the committed PNGs (re-run the script after changing it)', () => {
    for (const [name, png] of icons) {
      const committed = decode(readFileSync(join(dir, name)));
      const drawn = decode(png);
      expect(committed.width, name).toBe(drawn.width);
      expect(committed.pixels.equals(drawn.pixels), `${name} differs from the script's drawing`).toBe(true);
    }
  });
});

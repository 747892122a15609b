import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import type { ItemKind } from '../../../src-shared/pricing.ts';

/**
 * What kind of item a defindex is (a weapon, a cosmetic, a taunt, a tool or
 * something else), from the slot and class the game's schema gives it: a
 * repricing rule may name "Strange weapons" or "Unusual hats". The schema's
 * item list is 20 MB; it is scanned as it streams from disk, a chunk at a
 * time, rather than parsed whole (a third of a second the event loop would
 * not get back), and only the two fields each item needs are kept.
 */

const requirePackage = createRequire(import.meta.url);
const WEAPON_SLOTS = new Set(['primary', 'secondary', 'melee', 'pda', 'pda2', 'building']);

/** The kind of an item of this slot and class. */
export function kindOfItem(slot: string | undefined, itemClass: string | undefined): ItemKind {
  if (slot !== undefined && WEAPON_SLOTS.has(slot)) return 'weapon';
  if (slot === 'taunt') return 'taunt';
  if (slot === 'misc' || slot === 'head') return itemClass?.startsWith('tf_wearable') === true ? 'cosmetic' : 'other';
  if (itemClass === 'tool') return 'tool';
  return 'other';
}

let loading: Promise<ReadonlyMap<number, ItemKind>> | null = null;

/** Every defindex's kind, read once per process. */
export function loadItemKinds(path: string = requirePackage.resolve('tf2-static-schema/static/items.json')): Promise<ReadonlyMap<number, ItemKind>> {
  const read = () => scan(path);
  if (path !== requirePackage.resolve('tf2-static-schema/static/items.json')) return read();
  loading ??= read().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

function scan(path: string): Promise<ReadonlyMap<number, ItemKind>> {
  return new Promise((resolve, reject) => {
    const kinds = new Map<number, ItemKind>();
    let defindex: number | null = null;
    let slot: string | undefined;
    let itemClass: string | undefined;
    let tail = '';
    const close = () => {
      if (defindex !== null) kinds.set(defindex, kindOfItem(slot, itemClass));
    };
    const field = /"(defindex|item_slot|item_class)":\s*(?:(\d+)|"([^"]*)")/g;
    const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
    stream.on('data', (chunk) => {
      const text = tail + String(chunk);
      // A field cut at the chunk's end is read with the next chunk.
      const cut = text.lastIndexOf('\n');
      const whole = cut < 0 ? '' : text.slice(0, cut);
      tail = cut < 0 ? text : text.slice(cut);
      for (const m of whole.matchAll(field)) {
        if (m[1] === 'defindex') {
          close();
          defindex = Number(m[2]);
          slot = undefined;
          itemClass = undefined;
        } else if (m[1] === 'item_slot') slot = m[3];
        else itemClass = m[3];
      }
    });
    stream.on('end', () => {
      for (const m of tail.matchAll(field)) if (m[1] === 'item_slot') slot = m[3];
      close();
      resolve(kinds);
    });
    stream.on('error', reject);
  });
}

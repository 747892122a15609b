import type { Facet } from '../../../src-shared/item-facets.ts';
import type { ItemFormat } from './schema.ts';

/** A part of an item the tables filter by, named from the game's schema. */
export type PartKind = 'quality' | 'effect' | 'killstreak' | 'wear';

const KILLSTREAK_NAMES = ['None', 'Killstreak', 'Specialized Killstreak', 'Professional Killstreak'];
const FALLBACK: Readonly<Record<PartKind, string>> = { quality: 'Quality', effect: 'Effect', killstreak: 'Killstreak', wear: 'Wear' };

/** The schema's name of a quality, effect, killstreak tier or wear, or a plain "Effect 123" for an ID it lacks. */
export function partName({ schema }: ItemFormat, kind: PartKind, id: number): string {
  if (kind === 'killstreak') return KILLSTREAK_NAMES[id] ?? `${FALLBACK[kind]} ${id}`;
  try {
    const name: unknown = kind === 'quality' ? schema.getQualityName(id) : kind === 'effect' ? schema.getEffectName(id) : schema.getWearName(id);
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // An ID the schema does not name.
  }
  return `${FALLBACK[kind]} ${id}`;
}

/** Counted values of a part, named, as the item filters offer them. */
export function namedFacets(rows: readonly { readonly id: number; readonly n: number }[], kind: PartKind, name: (kind: PartKind, id: number) => string): Facet[] {
  return rows.map((r) => ({ id: r.id, name: name(kind, r.id), count: r.n }));
}

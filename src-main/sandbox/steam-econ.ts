import { createItemNames } from '../core/items/index.ts';
import type { KnownItem } from '../core/items/index.ts';
import { qualityColor } from '../core/items/quality-colors.ts';
import { classIdOf, familyOf } from './catalog/catalog.ts';
import { deriveSeed } from './catalog/prng.ts';

/**
 * What Steam's community inventory says about an item: the econ description
 * (shared by every asset of the same class and instance) as the platform
 * writes it for the team game: its market name (an Unusual is "Unusual Team
 * Captain", its effect in a description line), the quality, type and
 * exterior tags, killstreak, festivizer and craftability lines, and the
 * item's wiki link that carries its defindex. Built from the SKU through the
 * game's schema, so parsing it back (tf2-item-format) gives the SKU again.
 */

export interface EconTag {
  readonly category: string;
  readonly internal_name: string;
  readonly localized_category_name: string;
  readonly localized_tag_name: string;
  readonly color?: string;
}

export interface EconDescription {
  readonly appid: number;
  readonly classid: string;
  readonly instanceid: string;
  readonly currency: 0;
  readonly background_color: string;
  readonly icon_url: string;
  readonly descriptions: ReadonlyArray<{ readonly type?: string; readonly value: string; readonly color?: string }>;
  readonly tradable: 0 | 1;
  readonly actions: ReadonlyArray<{ readonly link: string; readonly name: string }>;
  readonly name: string;
  readonly name_color: string;
  readonly type: string;
  readonly market_name: string;
  readonly market_hash_name: string;
  readonly commodity: 0 | 1;
  readonly market_tradable_restriction: number;
  readonly marketable: 0 | 1;
  readonly tags: readonly EconTag[];
}

const names = createItemNames();
const byKey = new Map<string, EconDescription>();

/** The instance ID Steam would give this SKU's variant: stable, distinct per SKU of one class. */
export function instanceIdOf(sku: string): string {
  let hash = 0;
  for (let i = 0; i < sku.length; i++) hash = deriveSeed(hash, sku.charCodeAt(i));
  return String(hash);
}

/** The econ description of an item with this SKU (remembered: every asset of it shares one). */
export function econDescriptionOf(sku: string): EconDescription {
  let found = byKey.get(sku);
  if (found === undefined) {
    const item = names.describe(sku);
    if (!item.known) throw new RangeError(`no econ description for ${sku}: the item schema does not know it`);
    found = build(item);
    byKey.set(sku, found);
  }
  return found;
}

function build(item: KnownItem): EconDescription {
  const family = familyOf(item.sku);
  // Steam's market name says "Unusual" where backpack.tf names the effect, and never "Non-Craftable".
  let market = item.name.replace(/^Non-Craftable /, '');
  if (item.effect !== null) market = market.replace(`${item.effect.name} `, item.quality.id === 5 ? 'Unusual ' : '');
  const strangeType = item.quality.id === 11 || item.strange;
  const typeWord = family === 'tool' ? 'Tool' : family === 'cosmetic' ? 'Hat' : family === 'taunt' ? 'Special Taunt' : family === 'warpaint' ? 'War Paint' : item.item;
  const counter = family === 'cosmetic' ? 'Points Scored' : 'Kills';
  const color = (qualityColor(item.quality.id) ?? '#7D6D00').slice(1);
  const tags: EconTag[] = [
    { category: 'Quality', internal_name: item.quality.name.toLowerCase().replace(/[^a-z]+/g, '_'), localized_category_name: 'Quality', localized_tag_name: item.quality.name, color },
    { category: 'Type', internal_name: typeTag(family), localized_category_name: 'Type', localized_tag_name: typeWord },
  ];
  if (item.wear !== null) {
    tags.push({ category: 'Exterior', internal_name: `TFUI_InvTooltip_${item.wear.name.replace(/[^A-Za-z]/g, '')}`, localized_category_name: 'Exterior', localized_tag_name: item.wear.name });
  }
  const lines: Array<{ value: string; color?: string }> = [];
  if (item.effect !== null) lines.push({ value: `★ Unusual Effect: ${item.effect.name}`, color: 'ffd700' });
  if (item.festivized) lines.push({ value: 'Festivized', color: 'ffd700' });
  const tier = item.killstreak?.id ?? 0;
  if (tier >= 1) lines.push({ value: 'Killstreaks Active', color: '7ea9d1' });
  if (tier >= 2) lines.push({ value: 'Sheen: Team Shine', color: '7ea9d1' });
  if (tier >= 3) lines.push({ value: 'Killstreaker: Fire Horns', color: '7ea9d1' });
  if (!item.craftable) lines.push({ value: '( Not Usable in Crafting )' });
  const classid = classIdOf(item.sku) || String(item.defindex);
  return {
    appid: 440,
    classid,
    instanceid: instanceIdOf(item.sku),
    currency: 0,
    background_color: '3C352E',
    icon_url: `fWFc82js0fmoRAP-qOIPu5THSWqfSmTELLqcUywGkijVjZULUrsm1j-9xgEMaQkUTxr2vTx8mMnvA-aHAfQ_ktk664MayTdinxVwPffmaWVmKyzDBrFbB6Es${classid}`,
    descriptions: lines.map((l) => ({ type: 'text', ...l })),
    tradable: 1,
    actions: [{ link: `http://wiki.teamfortress.com/scripts/itemredirect.php?id=${item.defindex}&lang=en_US`, name: 'Item Wiki Page...' }],
    name: market,
    name_color: color,
    type: strangeType ? `Strange ${typeWord} - ${counter}: 0` : `Level ${1 + (item.defindex % 99)} ${typeWord}`,
    market_name: market,
    market_hash_name: market,
    commodity: 0,
    market_tradable_restriction: 7,
    marketable: item.craftable ? 1 : 0,
    tags,
  };
}

function typeTag(family: ReturnType<typeof familyOf>): string {
  switch (family) {
    case 'tool': return 'tool';
    case 'cosmetic': return 'misc';
    case 'taunt': return 'taunt';
    case 'warpaint': return 'paintkit';
    default: return 'primary';
  }
}

import type { ItemFilter, ItemKind, RepriceRule } from '../../../src-shared/pricing.ts';

/**
 * Which rule prices a SKU: a rule that names the SKU first, then the rule
 * whose filter says the most about the item (qualities, kinds, killstreaks,
 * name, australium, craftable: each condition counts), then the earliest
 * in the trader's order. A rule that is off prices nothing.
 */

export interface RuleEntry {
  readonly id: number;
  readonly position: number;
  readonly rule: RepriceRule;
}

/** What a filter can be told about a SKU: its parts, its kind, its name. */
export interface SkuFacts {
  readonly quality: number;
  readonly killstreak: number;
  readonly australium: boolean;
  readonly craftable: boolean;
  readonly kind: ItemKind;
  /** The item's name, lower-cased. */
  readonly name: string;
}

/** The parts of a backpack.tf SKU a filter reads (the kind and name come from the schema). */
export function skuParts(sku: string): Pick<SkuFacts, 'quality' | 'killstreak' | 'australium' | 'craftable'> & { defindex: number } {
  const [defindex, quality, ...parts] = sku.split(';');
  const kt = parts.find((p) => /^kt-?\d$/.test(p));
  return {
    defindex: Number(defindex),
    quality: Number(quality),
    killstreak: kt === undefined ? 0 : Number(kt.slice(-1)),
    australium: parts.includes('australium'),
    craftable: !parts.includes('uncraftable'),
  };
}

export function matches(filter: ItemFilter, facts: SkuFacts): boolean {
  if (filter.qualities && !filter.qualities.includes(facts.quality)) return false;
  if (filter.kinds && !filter.kinds.includes(facts.kind)) return false;
  if (filter.killstreaks && !filter.killstreaks.includes(facts.killstreak)) return false;
  if (filter.australium !== undefined && filter.australium !== facts.australium) return false;
  if (filter.craftable !== undefined && filter.craftable !== facts.craftable) return false;
  if (filter.text !== undefined && !facts.name.includes(filter.text.toLowerCase())) return false;
  return true;
}

/** How much a rule says about what it covers: a SKU most of all. */
export function specificity(rule: RepriceRule): number {
  if (rule.scope.by === 'sku') return 1_000;
  const f = rule.scope.filter;
  return [f.qualities, f.kinds, f.killstreaks, f.text, f.australium, f.craftable].filter((c) => c !== undefined).length;
}

/** The rules in the order they are tried: most specific first, then the trader's order. */
export function ruleOrder(rules: readonly RuleEntry[]): RuleEntry[] {
  return rules.filter((r) => r.rule.enabled).sort((a, b) => specificity(b.rule) - specificity(a.rule) || a.position - b.position || a.id - b.id);
}

/** The rule that prices a SKU for a kind of row (listings follow sell and both, buy orders buy and both), or null. */
export function ruleFor(ordered: readonly RuleEntry[], sku: string, domain: 'listings' | 'buyOrders', facts: () => SkuFacts): RuleEntry | null {
  let known: SkuFacts | null = null;
  for (const entry of ordered) {
    const { rule } = entry;
    if (rule.intent !== 'both' && rule.intent !== (domain === 'listings' ? 'sell' : 'buy')) continue;
    if (rule.scope.by === 'sku') {
      if (rule.scope.sku === sku) return entry;
      continue;
    }
    known ??= facts();
    if (matches(rule.scope.filter, known)) return entry;
  }
  return null;
}

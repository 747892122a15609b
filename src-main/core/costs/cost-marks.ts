import { costConcern, type CostGuard } from '../../../src-shared/cost-guard.ts';
import type { PriceReferences } from '../drafts/price-references.ts';
import type { CostLedger } from './cost-ledger.ts';

/**
 * The price guard's marks against cost (src-shared/cost-guard.ts), as the
 * drafts' review asks for them: each SKU's next cost read once per review.
 */
export function costMarks(ledger: Pick<CostLedger, 'nextCosts' | 'version'>, guard: () => CostGuard): PriceReferences {
  return {
    concerns() {
      const g = guard();
      const known = new Map<string, number | null>();
      return (sku, before, after) => {
        let cost = known.get(sku);
        if (cost === undefined) {
          cost = ledger.nextCosts([sku]).get(sku)?.unitCost ?? null;
          known.set(sku, cost);
        }
        return cost === null ? null : costConcern(before, after, cost, g);
      };
    },
    version: () => ledger.version() * 1_000_003 + hash(JSON.stringify(guard())),
  };
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

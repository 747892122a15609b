import type { LedgerFilter } from '../../../src-shared/contract.ts';

/** Whether a value narrows nothing: empty, or off (`craftable: false` narrows to the non-craftable). */
const isAny = (key: string, v: unknown) => v === undefined || v === null || v === '' || (v === false && key !== 'craftable');

/** Whether a table's filter narrows anything (the "Clear" button and the dot on "Filters"). */
export function isFilterActive(f: LedgerFilter): boolean {
  return Object.entries(f).some(([k, v]) => !isAny(k, v));
}

/** The filter with one field set, or dropped when empty: main reads absence as "any". */
export function withField<K extends keyof LedgerFilter>(f: LedgerFilter, key: K, value: LedgerFilter[K] | '' | null): LedgerFilter {
  const { [key]: _old, ...rest } = f;
  return isAny(key, value) ? rest : { ...rest, [key]: value };
}

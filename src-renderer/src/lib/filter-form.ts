import type { LedgerFilter } from '../../../src-shared/contract.ts';

/** Whether a table's filter narrows anything (the "Clear" button and the dot on "Filters"). */
export function isFilterActive(f: LedgerFilter): boolean {
  return Object.values(f).some((v) => v !== undefined && v !== '' && v !== false);
}

/** The filter with one field set, or dropped when empty: main reads absence as "any". */
export function withField<K extends keyof LedgerFilter>(f: LedgerFilter, key: K, value: LedgerFilter[K] | '' | null): LedgerFilter {
  const { [key]: _old, ...rest } = f;
  return value === '' || value === null || value === undefined || value === false ? rest : { ...rest, [key]: value };
}

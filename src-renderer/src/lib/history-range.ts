/**
 * The History screen's date ranges, in the trader's days: a preset ends
 * with today (included), a custom range runs from its first day's midnight
 * to the midnight after its last. Pure: "today" is an argument.
 */
export const RANGE_PRESETS = [
  { id: '7d', label: '7 days', days: 7 },
  { id: '30d', label: '30 days', days: 30 },
  { id: '90d', label: '90 days', days: 90 },
  { id: '1y', label: '1 year', days: 365 },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['id'] | 'custom';

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-16" → that day's local midnight; null for anything else. */
export function midnightOf(key: string): Date | null {
  const m = DAY_KEY.exec(key);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // A day that does not exist (2026-02-30) would roll over into the next month: refused instead.
  return Number.isNaN(d.getTime()) || dayKeyOf(d) !== key ? null : d;
}

/** A Date's local day, as date inputs write it. */
export function dayKeyOf(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function historyRangeOf(preset: RangePreset, customFrom: string, customTo: string, today: Date): { from: number; to: number } {
  const end = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  if (preset === 'custom') {
    const from = midnightOf(customFrom);
    const last = midnightOf(customTo);
    if (from !== null && last !== null && last >= from) {
      const to = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
      return { from: from.getTime(), to: Math.min(to.getTime(), from.getTime() + 731 * 86_400_000) };
    }
  }
  const days = RANGE_PRESETS.find((p) => p.id === preset)?.days ?? 30;
  const start = new Date(end.getFullYear(), end.getMonth(), end.getDate() - days);
  return { from: start.getTime(), to: end.getTime() };
}

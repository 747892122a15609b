import { formatCents } from '../../../src-shared/money.ts';

/**
 * How the review shows a change's before and after values: money through the
 * one formatter, flags as words, notes quoted, anything else as text.
 */
const MONEY_FIELDS = new Set(['price', 'balance', 'total']);
const FLAG_FIELDS: Record<string, [string, string]> = {
  promoted: ['not promoted', 'promoted'],
  active: ['paused', 'active'],
  active_only: ['everything', 'active only'],
};

/** A field of a change as the review names it: "note", not "user_note". */
const FIELD_NAMES: Record<string, string> = { user_note: 'note', active_only: 'which' };

export function fieldName(field: string): string {
  return FIELD_NAMES[field] ?? field.replaceAll('_', ' ');
}

export function formatFieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (MONEY_FIELDS.has(field) && typeof value === 'number' && Number.isSafeInteger(value)) return formatCents(value);
  const flag = FLAG_FIELDS[field];
  if (flag && (value === 0 || value === 1 || typeof value === 'boolean')) return flag[Number(value)] as string;
  if (field === 'user_note' && typeof value === 'string') return value === '' ? '(no note)' : `“${value}”`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const KIND_LABELS: Record<string, string> = {
  'listing.create': 'Create listing',
  'listing.edit': 'Edit listing',
  'listing.delete': 'Delete listing',
  'listing.deleteAll': 'Delete all listings',
  'buyOrder.create': 'Create buy order',
  'buyOrder.edit': 'Edit buy order',
  'buyOrder.delete': 'Delete buy order',
  'buyOrder.deleteAll': 'Delete all buy orders',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

/** The kinds a review lists, in the order main lists them (the order an apply runs them). */
export const KIND_ORDER = [
  'listing.deleteAll', 'buyOrder.deleteAll', 'listing.delete', 'buyOrder.delete',
  'listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit',
] as const;

/** Triggers a file download of text the renderer holds (a Blob link, no Node). */
export function downloadText(fileName: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

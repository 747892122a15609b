import { navigationHash } from '../../../src-shared/navigation.ts';

/**
 * The desk's screens, in the order of the sidebar and of Alt+1..9, and the
 * hash each one lives at (no router: the hash is the whole state of navigation).
 */
export const VIEWS = [
  { id: 'overview', label: 'Overview' },
  { id: 'listings', label: 'Listings' },
  { id: 'buy-orders', label: 'Buy orders' },
  { id: 'trades', label: 'Trades' },
  { id: 'history', label: 'History' },
  { id: 'accounts', label: 'Accounts' },
  { id: 'drafts', label: 'Drafts & apply' },
  { id: 'activity', label: 'Activity' },
  { id: 'settings', label: 'Settings' },
  // Past the nine Alt+digit shortcuts: reached from the sidebar.
  { id: 'pricing', label: 'Pricing' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export function isViewId(value: string): value is ViewId {
  return VIEWS.some((v) => v.id === value);
}

/** "#/trades" or "#trades" → "trades"; anything else → the overview. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return isViewId(id) ? id : 'overview';
}

export function hashFor(view: ViewId): string {
  return navigationHash({ view });
}

/** Main names views loosely ("buyOrders", "Trades"): map to ours or null. */
export function normalizeView(name: string): ViewId | null {
  const id = name.trim().replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  return isViewId(id) ? id : null;
}

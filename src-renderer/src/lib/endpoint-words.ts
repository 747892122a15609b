/**
 * The service's endpoints as a trader names what they do. Screens never show
 * `create_listing`: they say "Create listings" (a label) or "create these
 * listings" (what the desk asked for); the endpoint itself goes to Details.
 */
interface EndpointWords {
  /** A label: "Create listings". */
  readonly label: string;
  /** What the desk asked the service to do: "create these listings". */
  readonly ask: string;
}

const WORDS: Readonly<Record<string, EndpointWords>> = {
  create_listing: { label: 'Create listings', ask: 'create these listings' },
  edit_listing: { label: 'Edit listings', ask: 'edit these listings' },
  delete_listing: { label: 'Delete listings', ask: 'delete these listings' },
  delete_all_listings: { label: 'Delete all listings', ask: 'delete all listings' },
  create_buy_order: { label: 'Create buy orders', ask: 'create these buy orders' },
  edit_buy_order: { label: 'Edit buy orders', ask: 'edit these buy orders' },
  delete_buy_order: { label: 'Delete buy orders', ask: 'delete these buy orders' },
  delete_all_buy_orders: { label: 'Delete all buy orders', ask: 'delete all buy orders' },
  load_pending: { label: 'Load market trades', ask: 'load the market trades' },
  load_pending_buy_orders: { label: 'Load buy order trades', ask: 'load the buy order trades' },
  set_trade_url: { label: 'Set trade URL', ask: 'set the trade URL' },
  get_linked_trade_urls: { label: 'Read linked accounts', ask: 'read the linked accounts' },
  get_balance: { label: 'Read balance', ask: 'read the balance' },
  set_user_agent: { label: 'Heartbeat', ask: 'mark the account as automated' },
  // Not the service's: an alert to one of the trader's webhooks, given up (Settings → Alerts).
  alert: { label: 'Alert (webhook)', ask: 'send an alert' },
};

/** "Create listings"; an endpoint the desk does not know is shown with spaces for underscores. */
export function endpointLabel(endpoint: string): string {
  const known = WORDS[endpoint]?.label;
  if (known !== undefined) return known;
  const spaced = endpoint.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** "create these listings", or null for an endpoint the desk does not name. */
export function endpointAsk(endpoint: string | undefined): string | null {
  return endpoint === undefined ? null : (WORDS[endpoint]?.ask ?? null);
}

/** Whether a name is one of the service's endpoints (so a message can set it apart). */
export function isEndpoint(name: string): boolean {
  return Object.hasOwn(WORDS, name);
}

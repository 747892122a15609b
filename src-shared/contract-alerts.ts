import { byDesk, channel, none } from './channel-facts.ts';
import * as al from './alerts.ts';

/**
 * The contract's channels and event for alerts off the desktop (the
 * trader's webhooks): spread into contract.ts, which stays the one
 * description of the bridge.
 */

export const alertsChannels = {
  /** The webhooks, each as host and last four characters: a URL (its token) and a signing secret never come back. */
  'alerts:list': channel(none, al.alertsView, byDesk),
  /** The URL and the secret go into the keychain; nothing is sent until an alert or a test. */
  'alerts:add': channel(al.webhookAdd, al.alertsView, byDesk),
  'alerts:change': channel(al.webhookChange, al.alertsView, byDesk),
  'alerts:remove': channel(al.webhookRef, al.alertsView, byDesk),
  /** Posts a test alert once, now, and says what the receiver answered. */
  'alerts:test': channel(al.webhookRef, al.webhookTestResult, byDesk),
} as const;

export const alertsEvents = {
  /** A webhook was added, changed or removed, or an alert to one was delivered or given up. */
  'alerts:changed': al.alertsView,
} as const;

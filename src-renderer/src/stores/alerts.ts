import { defineStore } from 'pinia';
import type { ChannelInput, WebhookTestResult } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';
import { createMirror } from './mirror.ts';

export type WebhookInput = ChannelInput<'alerts:add'>;

/**
 * Settings → Alerts: the webhooks as main last said them (host and last four
 * characters, which alerts each takes, what its last alert came to). A URL
 * and a signing secret pass through `add` once, to main, and are kept in no
 * state here. Every action throws DeskError for the form to word.
 */
export const useAlertsStore = defineStore('alerts', () => {
  const mirror = createMirror(() => call('alerts:list', {}), 'alerts:changed');
  let started = false;

  const add = async (input: WebhookInput) => void mirror.accept(await call('alerts:add', input));
  const change = async (input: ChannelInput<'alerts:change'>) => void mirror.accept(await call('alerts:change', input));
  const remove = async (id: string) => void mirror.accept(await call('alerts:remove', { id }));
  /** Posts a test now; main's answer says what the receiver answered. */
  const test = (id: string): Promise<WebhookTestResult> => call('alerts:test', { id });

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { view: mirror.value, load: mirror.load, add, change, remove, test, start };
});

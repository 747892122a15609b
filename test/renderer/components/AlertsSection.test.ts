import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlertsView, WebhookView } from '../../../src-shared/contract.ts';
import AlertsSection from '../../../src-renderer/src/components/AlertsSection.vue';
import { useAlertsStore } from '../../../src-renderer/src/stores/alerts.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

const TOKEN = 'Zq3xT0kenPart-9f8e7d6c5b4a39281706ab';
const hook = (over: Partial<WebhookView> = {}): WebhookView => ({
  id: 'h1', format: 'discord', name: 'Trades channel', host: 'discord.com', last4: '06ab',
  alerts: { trades: true, automation: true, apply: false }, last: null, queued: 0, ...over,
});

describe('Settings → Alerts', () => {
  let fake: FakeApi;
  let view: AlertsView;
  afterEach(() => fake.uninstall());

  async function mountAlerts(webhooks: WebhookView[] = [hook()]) {
    view = { stamp: 1, webhooks, keychainAvailable: true };
    fake = installFakeApi({
      'alerts:list': () => view,
      'alerts:add': (input) => {
        if (input.url.includes('refuse')) throw new Refusal({ kind: 'keychain_unavailable', message: 'The system keychain is locked, so the webhook was not added' });
        return (view = { ...view, stamp: view.stamp + 1, webhooks: [...view.webhooks, hook({ id: 'h2', name: input.name, format: input.format, host: new URL(input.url).host, last4: input.url.slice(-4) })] });
      },
      'alerts:change': ({ id, alerts }) => (view = { ...view, stamp: view.stamp + 1, webhooks: view.webhooks.map((w) => (w.id === id && alerts ? { ...w, alerts } : w)) }),
      'alerts:remove': ({ id }) => (view = { ...view, stamp: view.stamp + 1, webhooks: view.webhooks.filter((w) => w.id !== id) }),
      'alerts:test': ({ id }) => ({ id, ok: false, status: 404, words: 'The receiver answered 404 Not Found: Unknown Webhook', ms: 84 }),
    });
    const wrapper = mount(AlertsSection, { attachTo: document.body, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useAlertsStore().load();
    await flushPromises();
    return wrapper;
  }

  it('shows each webhook as its host and last four characters, and which alerts it takes', async () => {
    const wrapper = await mountAlerts();
    const item = wrapper.get('[data-testid=webhook]');
    expect(item.text()).toContain('Trades channel');
    expect(item.text()).toContain('discord.com ••06ab');
    const boxes = item.findAll('input[type=checkbox]').map((b) => (b.element as HTMLInputElement).checked);
    expect(boxes).toEqual([true, true, false]);
    wrapper.unmount();
  });

  it('takes the URL in a password field, refuses plain http before sending, and clears what was typed once added', async () => {
    const wrapper = await mountAlerts([]);
    expect(wrapper.get('[data-testid=webhooks-none]').text()).toContain('No webhook yet');
    const url = wrapper.get('input[type=password]');
    await wrapper.get('input[placeholder="e.g. Trades channel"]').setValue('Phone');
    await url.setValue(`http://hooks.example/api/webhooks/1/${TOKEN}`);
    expect(wrapper.get('#hook-url-help').text()).toContain('must use https://');
    expect(wrapper.get('button[type=submit]').attributes('disabled')).toBeDefined();
    await url.setValue(`https://discord.com/api/webhooks/1/${TOKEN}`);
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('alerts:add')).toEqual([{ format: 'discord', name: 'Phone', url: `https://discord.com/api/webhooks/1/${TOKEN}`, alerts: { trades: true, automation: true, apply: false } }]);
    expect((url.element as HTMLInputElement).value).toBe('');
    expect(wrapper.html()).not.toContain(TOKEN);
    expect(wrapper.findAll('[data-testid=webhook]')).toHaveLength(1);
    wrapper.unmount();
  });

  it('asks a signed webhook for its secret, and says a refusal beside the form', async () => {
    const wrapper = await mountAlerts([]);
    await wrapper.get('select[aria-label="Receiver format"]').setValue('signed');
    await wrapper.get('input[placeholder="e.g. Trades channel"]').setValue('Relay');
    const [url, secret] = wrapper.findAll('input[type=password]');
    await url?.setValue('https://relay.example/desk/refuse');
    await secret?.setValue('short');
    expect(wrapper.get('#hook-secret-help').text()).toContain('at least 16 characters');
    expect(wrapper.get('button[type=submit]').attributes('disabled')).toBeDefined();
    await secret?.setValue('relay-secret-7f3a9c2e11b0');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('alerts:add')).toEqual([{ format: 'signed', name: 'Relay', url: 'https://relay.example/desk/refuse', secret: 'relay-secret-7f3a9c2e11b0', alerts: { trades: true, automation: true, apply: false } }]);
    expect(wrapper.get('[role=alert]').text()).toContain('keychain is locked');
    wrapper.unmount();
  });

  it('changes which alerts a webhook takes, one box at a time', async () => {
    const wrapper = await mountAlerts();
    await wrapper.get('[data-testid=webhook]').findAll('input[type=checkbox]')[2]?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('alerts:change')).toEqual([{ id: 'h1', alerts: { trades: true, automation: true, apply: true } }]);
    wrapper.unmount();
  });

  it('sends a test and says what the receiver answered', async () => {
    const wrapper = await mountAlerts();
    await wrapper.get('[data-testid=webhook]').findAll('button').find((b) => b.text() === 'Send a test')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('alerts:test')).toEqual([{ id: 'h1' }]);
    expect(wrapper.get('[data-testid=webhook-last]').text()).toBe('The receiver answered 404 Not Found: Unknown Webhook.');
    expect(wrapper.get('[data-testid=webhook-last]').classes()).toContain('field-error');
    wrapper.unmount();
  });

  it('removes a webhook only once the trader confirms', async () => {
    const wrapper = await mountAlerts();
    await wrapper.get('[data-testid=webhook]').findAll('button').find((b) => b.text() === 'Remove')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('alerts:remove')).toEqual([]);
    const dialog = document.body.querySelector('[role=alertdialog]');
    expect(dialog?.textContent).toContain('its address is deleted from the keychain');
    [...(dialog?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === 'Remove webhook')?.click();
    await flushPromises();
    expect(fake.callsTo('alerts:remove')).toEqual([{ id: 'h1' }]);
    expect(wrapper.find('[data-testid=webhook]').exists()).toBe(false);
    wrapper.unmount();
  });
});

import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../../src-shared/contract.ts';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import { useHistoryStore } from '../../../src-renderer/src/stores/history.ts';
import { useListingsTable } from '../../../src-renderer/src/stores/ledger.ts';
import SettingsView from '../../../src-renderer/src/views/SettingsView.vue';
import { deskHandlers, settings } from '../desk-data.ts';
import { installFakeApi, Refusal, type FakeApi, type Handlers } from '../fake-api.ts';

describe('Settings screen', () => {
  let fake: FakeApi;
  let current: Settings;
  afterEach(() => fake.uninstall());

  async function mountSettings(over: Handlers = {}) {
    current = { ...settings };
    fake = installFakeApi(
      deskHandlers({
        'settings:get': () => current,
        'settings:update': (patch) => (current = { ...current, ...patch } as Settings),
        ...over,
      }),
    );
    const wrapper = mount(SettingsView, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useSettingsStore().load();
    await flushPromises();
    return wrapper;
  }

  const checkbox = (wrapper: Awaited<ReturnType<typeof mountSettings>>, text: string) =>
    wrapper.findAll('label').find((l) => l.text().startsWith(text))?.get('input');

  it('saves each toggle as it is changed, as a one-field patch', async () => {
    const wrapper = await mountSettings();
    await checkbox(wrapper, 'Heartbeat on')?.setValue(false);
    await checkbox(wrapper, 'Start at login')?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ heartbeatEnabled: false }, { startAtLogin: true }]);
  });

  it('offers heartbeat intervals of 5 to 9 minutes only', async () => {
    const wrapper = await mountSettings();
    const select = wrapper.get('select[aria-label="Heartbeat interval in minutes"]');
    expect(select.findAll('option').map((o) => o.attributes('value'))).toEqual(['5', '6', '7', '8', '9']);
    await select.setValue('5');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ heartbeatIntervalMinutes: 5 }]);
  });

  it('refuses a trade poll interval outside 60–3600 s without sending it', async () => {
    const wrapper = await mountSettings();
    const input = wrapper.get('input[aria-label="Trade poll interval in seconds"]');
    await input.setValue('30');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([]);
    expect((input.element as HTMLInputElement).value).toBe('60');
    await input.setValue('120');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ tradePollSeconds: 120 }]);
  });

  it('keeps what is being typed in a field when the answer to another save redraws the form', async () => {
    const wrapper = await mountSettings();
    const poll = wrapper.get('input[aria-label="Trade poll interval in seconds"]');
    const floor = wrapper.get('input[aria-label="Mark prices under this floor in dollars"]');
    // Typed, not yet committed (no change event): a toggle is saved meanwhile and its answer comes back.
    (poll.element as HTMLInputElement).value = '90';
    await poll.trigger('input');
    (floor.element as HTMLInputElement).value = '0.5';
    await floor.trigger('input');
    await checkbox(wrapper, 'Start at login')?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ startAtLogin: true }]);
    expect((poll.element as HTMLInputElement).value).toBe('90');
    expect((floor.element as HTMLInputElement).value).toBe('0.5');
    // Committed, each is saved as typed and then shows what was saved.
    await poll.trigger('change');
    await floor.trigger('change');
    await flushPromises();
    expect(fake.callsTo('settings:update').slice(1)).toEqual([{ tradePollSeconds: 90 }, { priceGuard: { ...settings.priceGuard, floorCents: 50 } }]);
    expect((poll.element as HTMLInputElement).value).toBe('90');
    expect((floor.element as HTMLInputElement).value).toBe('0.50');
  });

  it('sets the theme: system, light or dark', async () => {
    const wrapper = await mountSettings();
    const radios = wrapper.findAll('input[name=theme]');
    expect(radios.map((r) => (r.element as HTMLInputElement).checked)).toEqual([true, false, false]);
    await radios[2]?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ theme: 'dark' }]);
  });

  it('writes exports for the trader\'s spreadsheet: a semicolon and decimal comma once chosen, in every export', async () => {
    const csv = { csv: '\uFEFFkind;price\r\n', rows: 0 };
    const wrapper = await mountSettings({ 'drafts:exportCsv': () => ({ csv: csv.csv }), 'ledger:exportCsv': () => csv, 'history:exportCsv': () => csv });
    const radios = wrapper.findAll('input[name=csv-format]');
    expect(radios.map((r) => (r.element as HTMLInputElement).checked)).toEqual([true, false]);
    expect(wrapper.text()).toContain('Semicolon, decimal comma (1,50): Excel in most of Europe');
    await radios[1]?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ csvFormat: 'semicolon' }]);
    await useDraftsStore().exportCsv('d1');
    await useListingsTable().exportCsv(true);
    await useHistoryStore().exportCsv();
    expect(fake.callsTo('drafts:exportCsv')).toEqual([{ draftId: 'd1', format: 'semicolon' }]);
    expect(fake.callsTo('ledger:exportCsv')).toEqual([expect.objectContaining({ format: 'semicolon' })]);
    expect(fake.callsTo('history:exportCsv')).toEqual([expect.objectContaining({ format: 'semicolon', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })]);
  });

  it('keeps the live URL under a folded “Advanced” while it is the default, editable in sandbox mode too', async () => {
    current = { ...settings, serviceUrl: 'https://api.liquid.tf' };
    fake?.uninstall();
    fake = installFakeApi(deskHandlers({
      'settings:get': () => current,
      'settings:update': (patch) => (current = { ...current, ...patch } as Settings),
    }));
    const wrapper = mount(SettingsView, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useSettingsStore().load();
    await flushPromises();
    const fold = wrapper.get('details.advanced');
    expect(fold.attributes('open')).toBeUndefined();
    expect(fold.get('summary').text()).toBe('Advanced');
    const url = fold.get('input');
    expect(url.attributes('disabled')).toBeUndefined();
    await url.setValue('http://203.0.113.9');
    expect(wrapper.get('#url-problem').text()).toMatch(/^The service URL must use https:\/\//);
    expect(fold.attributes('open')).toBeDefined();
    // setValue sends input and change, as typing then leaving the field does.
    await url.setValue('https://market.example');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ serviceUrl: 'https://market.example' }]);
    expect(wrapper.get('details.advanced').attributes('open')).toBeDefined();
  });

  it('opens the guided start again from Settings', async () => {
    const wrapper = await mountSettings();
    await wrapper.findAll('button').find((b) => b.text() === 'Open the guided start')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ guideDismissed: false }]);
    expect(location.hash).toBe('#/overview');
  });

  it('says why a change was not saved, and Try again saves it when the data file was only busy', async () => {
    const wrapper = await mountSettings();
    let tries = 0;
    fake.uninstall();
    fake = installFakeApi(deskHandlers({
      'settings:get': () => current,
      'settings:update': (patch) => {
        tries += 1;
        if (tries === 1) throw new Refusal({ kind: 'busy', message: 'in use' });
        return (current = { ...current, ...patch, stamp: current.stamp + 1 } as Settings);
      },
    }));
    await checkbox(wrapper, 'Start at login')?.setValue(true);
    await flushPromises();
    const problem = wrapper.get('.problem');
    expect(problem.text()).toContain('in use by another task or program');
    await problem.get('button').trigger('click');
    await flushPromises();
    expect(tries).toBe(2);
    expect(current.startAtLogin).toBe(true);
    expect(wrapper.find('.problem').exists()).toBe(false);
  });
});

import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ProfileRecoveryView from '../../../src-renderer/src/views/ProfileRecoveryView.vue';
import type { ProfileProblem } from '../../../src-shared/contract.ts';
import { backupView, EMPTY_ROWS } from '../backup-views.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

const newer = backupView(6, {
  dataVersion: 19, appVersion: '2.0.0',
  refusal: 'It was saved by a newer version of Marketplace Desk (data version 19; this version reads up to 17), so this version cannot restore it.',
});
const full = backupView(5);
const older = backupView(4, { kind: 'before-migration', appVersion: null, dataVersion: 16 });
const empty = backupView(0, { rows: EMPTY_ROWS, empty: true, sizeBytes: 180_224 });
const damaged: ProfileProblem = {
  kind: 'damaged',
  message: 'The profile’s data file is damaged and cannot be read (file is not a database). It was moved aside, not deleted.',
  file: '/home/t/.config/Marketplace Desk/profiles/default.sqlite',
  movedTo: '/home/t/.config/Marketplace Desk/profiles/default.sqlite.broken-20251126T103205000Z',
  backups: [newer, full, older, empty],
  choices: ['restore', 'fresh'],
};

/** The real store, over the fake bridge. */
const global = () => ({ plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] });

/** The dialog's body and its confirm button, once a restore was asked for. */
const dialog = () => document.body.querySelector<HTMLElement>('[role=alertdialog]');

describe('the profile recovery screen', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('says what happened, lists every backup with its date, what it holds and what wrote it, and restores the chosen one once confirmed', async () => {
    fake = installFakeApi({ 'profile:recover': () => ({ opened: true, problem: null }) });
    const wrapper = mount(ProfileRecoveryView, { props: { problem: damaged }, attachTo: document.body, global: global() });
    expect(wrapper.get('h1').text()).toBe('Your profile is damaged');
    expect(wrapper.get('[data-testid=recovery-what]').text()).toBe(damaged.message);
    expect(wrapper.get('[data-testid=recovery-moved]').text()).toBe(damaged.movedTo);
    const rows = wrapper.findAll('tbody tr').map((r) => r.findAll('th, td').map((c) => c.text()));
    expect(rows).toEqual([
      ['2025-11-26 08:00:00Daily', '2.4 MB', '1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 trade', 'Marketplace Desk 2.0.0, data version 19', newer.refusal],
      ['2025-11-25 08:00:00Daily', '2.4 MB', '1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 trade', 'Marketplace Desk 1.4.0, data version 17', 'Restore…'],
      ['2025-11-24 08:00:00Before an update of the data', '2.4 MB', '1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 trade', 'Data version 16', 'Restore…'],
      ['2025-11-20 08:00:00Daily', '180 KB', 'Nothing: an empty profile', 'Marketplace Desk 1.4.0, data version 17', 'Restore…'],
    ]);
    // The newest this version can restore is the main action; the one from a newer version has no button.
    const restores = wrapper.findAll('tbody button');
    expect(restores.map((b) => b.attributes('aria-label'))).toEqual([
      'Restore the backup of 2025-11-25 08:00:00', 'Restore the backup of 2025-11-24 08:00:00', 'Restore the backup of 2025-11-20 08:00:00',
    ]);
    expect(restores[0]?.classes()).toContain('primary');
    expect(wrapper.findAll('[role=group] button').map((b) => b.text())).toEqual(['Start fresh with an empty profile']);
    expect(badWording(wrapper.text())).toBeNull();

    // Asked first, with what it holds; cancelled, nothing is sent.
    await restores[1]?.trigger('click');
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Restore the backup of 2025-11-24 08:00:00?');
    expect(dialog()?.querySelector('dl')?.textContent).toBe('Holds1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 tradeSaved byData version 16');
    dialog()?.querySelector<HTMLButtonElement>('button')?.click();
    await flushPromises();
    expect(dialog()).toBeNull();
    expect(fake.callsTo('profile:recover')).toEqual([]);

    await restores[0]?.trigger('click');
    const confirm = [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Restore this backup');
    confirm?.click();
    await flushPromises();
    expect(fake.callsTo('profile:recover')).toEqual([{ choice: 'restore', backup: full.name }]);
    expect(wrapper.emitted('opened')).toHaveLength(1);
    wrapper.unmount();
  });

  it('an empty backup says so before it is restored, and is sent as confirmed only from that dialog', async () => {
    fake = installFakeApi({ 'profile:recover': () => ({ opened: true, problem: null }) });
    const wrapper = mount(ProfileRecoveryView, { props: { problem: damaged }, attachTo: document.body, global: global() });
    await wrapper.get(`[data-backup="${empty.name}"] button`).trigger('click');
    expect(dialog()?.querySelector('[data-testid=restore-empty]')?.textContent).toMatch(/^\s*This backup is empty: restoring it is the same as starting fresh/);
    const confirm = [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Restore the empty backup');
    expect(confirm?.className).toContain('danger');
    confirm?.click();
    await flushPromises();
    expect(fake.callsTo('profile:recover')).toEqual([{ choice: 'restore', backup: empty.name, confirmEmpty: true }]);
    wrapper.unmount();
  });

  it('shows the problem that is left when trying again does not open it, and a refusal in words', async () => {
    const locked: ProfileProblem = {
      kind: 'locked', message: 'Another Marketplace Desk has this profile open (process 4242 on desk-pc, since 2025-11-26 10:32 UTC). Close it first.',
      file: '/p/default.sqlite', movedTo: null, backups: [], choices: ['retry'],
    };
    let answers = 0;
    fake = installFakeApi({
      'profile:recover': () => {
        answers += 1;
        if (answers === 1) return { opened: false, problem: { ...locked, message: `${locked.message} Still open.` } };
        throw new Refusal({ kind: 'disk_full', message: 'The disk is full, so this was not saved' });
      },
    });
    const wrapper = mount(ProfileRecoveryView, { props: { problem: locked }, global: global() });
    expect(wrapper.find('[data-testid=recovery-moved]').exists()).toBe(false);
    expect(wrapper.find('table').exists()).toBe(false);
    expect(wrapper.text()).not.toContain('Start fresh');
    expect(wrapper.get('[data-choice=retry]').classes()).toContain('primary');
    await wrapper.get('[data-choice=retry]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid=recovery-what]').text()).toMatch(/Still open\.$/);
    expect(wrapper.emitted('opened')).toBeUndefined();
    await wrapper.get('[data-choice=retry]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[role=alert]').text()).toContain('The disk is full: free some space.');
  });
});

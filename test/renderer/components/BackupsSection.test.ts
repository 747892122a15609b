import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BackupsSection from '../../../src-renderer/src/components/BackupsSection.vue';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import type { BackupsList } from '../../../src-shared/contract.ts';
import { backupView, EMPTY_ROWS } from '../backup-views.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

const today = backupView(2);
const yesterday = backupView(1, { sizeBytes: 950 });
const first = backupView(0, { rows: EMPTY_ROWS, empty: true, kind: 'before-restore' });
const listed: BackupsList = { backups: [today, yesterday, first], problem: null };
const global = () => ({ plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] });
const dialog = () => document.body.querySelector<HTMLElement>('[role=alertdialog]');
const dialogButton = (text: string) => [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === text);

describe('Settings: backups', () => {
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('lists every backup with its date, kind, size, what it holds and what wrote it, and why the last one failed', async () => {
    fake = installFakeApi({ 'backups:list': () => ({ ...listed, problem: 'The last daily backup failed (database or disk is full). It is tried again within the hour.' }) });
    const wrapper = mount(BackupsSection, { global: global() });
    await flushPromises();
    expect(wrapper.findAll('tbody tr').map((r) => r.findAll('th, td').slice(0, 3).map((c) => c.text()))).toEqual([
      ['2025-11-22 08:00:00Daily', '2.4 MB', '1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 trade'],
      ['2025-11-21 08:00:00Daily', '950 B', '1,204 listings, 31 buy orders, 2 drafts (57 changes), 1 trade'],
      ['2025-11-20 08:00:00Before a restore', '2.4 MB', 'Nothing: an empty profile'],
    ]);
    expect(wrapper.get('[data-testid=backup-problem]').text()).toMatch(/^The last daily backup failed \(database or disk is full\)/);
    expect(badWording(wrapper.text())).toBeNull();
  });

  it('restores the chosen backup once confirmed, then loads the page again and says what was done', async () => {
    fake = installFakeApi({
      'backups:list': () => listed,
      'backups:restore': () => ({ restored: yesterday, savedAs: backupView(3, { kind: 'before-restore' }) }),
    });
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    const wrapper = mount(BackupsSection, { attachTo: document.body, global: global() });
    await flushPromises();
    await wrapper.get(`[data-backup="${yesterday.name}"] button`).trigger('click');
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Restore the backup of 2025-11-21 08:00:00?');
    expect(dialog()?.textContent).toContain('Your profile as it is now is backed up first.');
    dialogButton('Restore this backup')?.click();
    await flushPromises();
    expect(fake.callsTo('backups:restore')).toEqual([{ backup: yesterday.name }]);
    expect(reload).toHaveBeenCalledTimes(1);
    wrapper.unmount();

    // The page that loads next says it, once.
    const after = mount(BackupsSection, { global: global() });
    await flushPromises();
    const said = 'Restored the backup of 2025-11-21 08:00:00. The profile as it was just before is kept as the backup of 2025-11-23 08:00:00.';
    expect(after.get('[data-testid=backup-restored]').text()).toBe(said);
    expect(useNoticesStore().notices.map((n) => [n.tone, n.text])).toEqual([['success', said]]);
    after.unmount();
    expect(mount(BackupsSection, { global: global() }).find('[data-testid=backup-restored]').exists()).toBe(false);
  });

  it('an empty backup is restored only from the dialog that says it is empty; a refusal stays beside the list', async () => {
    fake = installFakeApi({
      'backups:list': () => listed,
      'backups:restore': () => {
        throw new Refusal({ kind: 'conflict', message: 'An apply is running. Restore a backup when it has finished, or cancel it first' });
      },
    });
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    const wrapper = mount(BackupsSection, { attachTo: document.body, global: global() });
    await flushPromises();
    await wrapper.get(`[data-backup="${first.name}"] button`).trigger('click');
    expect(dialog()?.querySelector('[data-testid=restore-empty]')).not.toBeNull();
    dialogButton('Restore the empty backup')?.click();
    await flushPromises();
    expect(fake.callsTo('backups:restore')).toEqual([{ backup: first.name, confirmEmpty: true }]);
    expect(reload).not.toHaveBeenCalled();
    expect(wrapper.get('[role=alert]').text()).toContain('An apply is running');
    wrapper.unmount();
  });
});

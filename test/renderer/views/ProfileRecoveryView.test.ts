import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import ProfileRecoveryView from '../../../src-renderer/src/views/ProfileRecoveryView.vue';
import type { ProfileProblem } from '../../../src-shared/contract.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

const TAKEN = new Date(2025, 10, 25, 8, 0, 0).getTime();
const damaged: ProfileProblem = {
  kind: 'damaged',
  message: 'The profile’s data file is damaged and cannot be read (file is not a database). It was moved aside, not deleted.',
  file: '/home/t/.config/Marketplace Desk/profiles/default.sqlite',
  movedTo: '/home/t/.config/Marketplace Desk/profiles/default.sqlite.broken-20251126T103205000Z',
  backup: { takenAt: TAKEN, file: '/home/t/.config/Marketplace Desk/profiles/backups/default.backup-20251125T080000000Z.sqlite' },
  choices: ['restore', 'fresh'],
};

describe('the profile recovery screen', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('says what happened and where the file went, and offers the backup by its date or a fresh start', async () => {
    fake = installFakeApi({ 'profile:recover': () => ({ opened: true, problem: null }) });
    const wrapper = mount(ProfileRecoveryView, { props: { problem: damaged } });
    expect(wrapper.get('h1').text()).toBe('Your profile is damaged');
    expect(wrapper.get('[data-testid=recovery-what]').text()).toBe(damaged.message);
    expect(wrapper.get('[data-testid=recovery-moved]').text()).toBe(damaged.movedTo);
    const buttons = wrapper.findAll('[role=group] button');
    expect(buttons.map((b) => b.text())).toEqual(['Restore the backup of 2025-11-25 08:00:00', 'Start fresh with an empty profile']);
    expect(buttons[0]?.classes()).toContain('primary');
    expect(badWording(wrapper.text())).toBeNull();

    await buttons[0]?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('profile:recover')).toEqual([{ choice: 'restore' }]);
    expect(wrapper.emitted('opened')).toHaveLength(1);
  });

  it('shows the problem that is left when trying again does not open it, and a refusal in words', async () => {
    const locked: ProfileProblem = {
      kind: 'locked', message: 'Another Marketplace Desk has this profile open (process 4242 on desk-pc, since 2025-11-26 10:32 UTC). Close it first.',
      file: '/p/default.sqlite', movedTo: null, backup: null, choices: ['retry'],
    };
    let answers = 0;
    fake = installFakeApi({
      'profile:recover': () => {
        answers += 1;
        if (answers === 1) return { opened: false, problem: { ...locked, message: `${locked.message} Still open.` } };
        throw new Refusal({ kind: 'disk_full', message: 'The disk is full, so this was not saved' });
      },
    });
    const wrapper = mount(ProfileRecoveryView, { props: { problem: locked } });
    expect(wrapper.find('[data-testid=recovery-moved]').exists()).toBe(false);
    expect(wrapper.text()).not.toContain('Start fresh');
    await wrapper.get('[data-choice=retry]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid=recovery-what]').text()).toMatch(/Still open\.$/);
    expect(wrapper.emitted('opened')).toBeUndefined();
    await wrapper.get('[data-choice=retry]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[role=alert]').text()).toContain('The disk is full: free some space.');
  });
});

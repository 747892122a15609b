import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import BulkPanel from '../../../src-renderer/src/components/BulkPanel.vue';

describe('bulk panel', () => {
  const rows = [{ key: '1', price: 1000 }, { key: '2', price: 2000 }];

  it('previews the formula over the selected rows and sends it', async () => {
    const wrapper = mount(BulkPanel, { props: { target: 'listings', rows } });
    await wrapper.get('input[aria-label=Percent]').setValue('90');
    expect(wrapper.text()).toContain('New prices $9.00 – $18.00.');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.emitted('apply')).toEqual([[{ op: 'multiply', percent: 90, rounding: 'nearest' }]]);
  });

  it('keeps its preview while the edit is on its way, though the rows then show the new prices', async () => {
    const wrapper = mount(BulkPanel, { props: { target: 'listings', rows } });
    await wrapper.get('input[aria-label=Percent]').setValue('90');
    await wrapper.setProps({ busy: true, rows: [{ key: '1', price: 900 }, { key: '2', price: 1800 }] });
    expect(wrapper.text()).toContain('New prices $9.00 – $18.00.');
    // Refused or failed: the rows show their old prices again, and the preview follows them.
    await wrapper.setProps({ busy: false, rows: [{ key: '1', price: 500 }, { key: '2', price: 1000 }] });
    expect(wrapper.text()).toContain('New prices $4.50 – $9.00.');
  });
});

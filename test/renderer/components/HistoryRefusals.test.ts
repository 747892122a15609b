import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import HistoryRefusals from '../../../src-renderer/src/components/HistoryRefusals.vue';

const refusal = (ref: string, field: string, value: string, reason: string, times = 1) => ({
  kind: 'market' as const, ref, field, value, reason, firstAt: Date.UTC(2025, 0, 6, 9), lastAt: Date.UTC(2025, 0, 6, 10), times,
});

describe('HistoryRefusals', () => {
  it('names each refused trade, its field, the value and why, as text', () => {
    const w = mount(HistoryRefusals, {
      props: {
        count: 3,
        recent: [
          refusal('8002', 'total', '9007199254740991', 'is beyond $10,000,000', 4),
          refusal('<b>8004</b>', 'total', '-700', 'is negative'),
        ],
      },
    });
    expect(w.find('h2').text()).toContain('3 answers');
    const items = w.findAll('li').map((li) => li.text());
    expect(items[0]).toContain('Listing trade 8002: total 9007199254740991 is beyond $10,000,000');
    expect(items[0]).toContain('4 times');
    // The service's text is shown as text, never as markup.
    expect(items[1]).toContain('Listing trade <b>8004</b>: total -700 is negative');
    expect(w.find('b').exists()).toBe(false);
    expect(w.text()).toContain('and 1 more');
  });
});

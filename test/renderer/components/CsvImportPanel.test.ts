import { createTestingPinia } from '@pinia/testing';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CsvImportPanel from '../../../src-renderer/src/components/CsvImportPanel.vue';
import type { ChannelInput, ChannelOutput, CsvPreview } from '../../../src-shared/contract.ts';
import { CSV_PART_MAX_CHARS, CSV_PART_SIZE } from '../../../src-shared/csv-parts.ts';
import { deskHandlers } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

type Part = ChannelInput<'drafts:importCsvPart'>;

const PREVIEW: CsvPreview = { token: 't', kind: 'buyOrders', validCount: 1, errors: [{ line: 3, reason: 'price: must be an amount in dollars, e.g. 4.50' }], errorCount: 1,
  dialect: { separator: ',', separatorFrom: 'detected', decimal: '.', decimalFrom: 'prices', bom: false, lineEnd: 'LF' }, notInInventory: { count: 0, sample: [] },
};

/** Main's side of the upload: answers the upload until the last part, then the preview; `seen` hears each part as it comes. */
function uploads(seen: (part: Part) => void = () => undefined) {
  return (part: Part): ChannelOutput<'drafts:importCsvPart'> => {
    seen(part);
    return { upload: 'u1', preview: part.last ? PREVIEW : null };
  };
}

const mountPanel = () => mount(CsvImportPanel, { props: { kind: 'buyOrders' }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });

async function chooseFile(wrapper: VueWrapper, file: File): Promise<void> {
  const input = wrapper.get('input[type=file]');
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
  await input.trigger('change');
}

const checkButton = (wrapper: VueWrapper) => wrapper.findAll('button').find((b) => b.text() === 'Check');

describe('CSV import panel', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('counts rows and refused lines in words that agree with the number, and asks for prices in dollars', async () => {
    fake = installFakeApi(deskHandlers({ 'drafts:importCsvPart': uploads() }));
    const wrapper = mountPanel();
    expect(wrapper.text()).toContain('price (in dollars, e.g. 4.50)');
    expect(wrapper.text()).toContain('or the item’s name');
    await wrapper.get('textarea').setValue('sku,price,quantity\n5021;6,4.50,1\n');
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:importCsvPart')).toEqual([{ kind: 'buyOrders', seq: 1, text: 'sku,price,quantity\n5021;6,4.50,1\n', last: true }]);
    const text = wrapper.text();
    expect(text).toContain('1 row ready');
    expect(text).toContain('1 line refused');
    expect(text).toContain('Accept 1 row');
    expect(badWording(text)).toBeNull();
  });

  it('says how it read a spreadsheet\'s file, reads it again as the trader chooses, and says which rows changed since the check', async () => {
    const european: CsvPreview = {
      ...PREVIEW, validCount: 3, errors: [], errorCount: 0,
      dialect: { separator: ';', separatorFrom: 'detected', decimal: ',', decimalFrom: 'prices', bom: true, lineEnd: 'CRLF' },
      notInInventory: { count: 1, sample: [{ line: 4, assetId: '11000000999' }] },
    };
    fake = installFakeApi(deskHandlers({
      'drafts:importCsvPart': (part) => ({ upload: 'u1', preview: part.last ? ('kind' in part && part.dialect ? { ...european, dialect: { ...european.dialect, separatorFrom: 'chosen', decimalFrom: 'chosen' } } : european) : null }),
      'drafts:importCommit': () => ({ imported: 2, refused: 1, changedSince: 1 }),
    }));
    const wrapper = mountPanel();
    const file = '\uFEFFsku;price;quantity\r\n5021;6;1,50;1\r\n';
    await wrapper.get('textarea').setValue(file);
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid=csv-read-as]').text()).toBe('Read as semicolon-separated (detected), decimal comma “1,50” (from the prices), with a byte order mark, Windows line ends (CRLF).');
    expect(wrapper.text()).toContain('1 new listing names an asset the inventory as last read does not hold (line 4: 11000000999)');

    // Chosen otherwise: the preview goes until checked again, and the choice goes with the file.
    const [sep, dec] = wrapper.findAll('select');
    await sep?.setValue(';');
    await dec?.setValue(',');
    expect(wrapper.find('[data-testid=csv-read-as]').exists()).toBe(false);
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:importCsvPart').at(-1)).toEqual({ kind: 'buyOrders', seq: 1, text: file, last: true, dialect: { separator: ';', decimal: ',' } });
    expect(wrapper.get('[data-testid=csv-read-as]').text()).toContain('semicolon-separated (as you chose), decimal comma “1,50” (as you chose)');

    // One row was refused at commit because the ledger changed since: only that one is said to have changed.
    await wrapper.findAll('button').find((b) => b.text().startsWith('Accept'))?.trigger('click');
    await flushPromises();
    const said = JSON.stringify(useNoticesStore().$state);
    expect(said).toContain('2 rows added to the draft. 1 row no longer fits what changed since the check, and stayed out.');
    expect(badWording(wrapper.text())).toBeNull();
  });

  it('sends a chosen file a part at a time, numbered in order, never into the text box, with a character cut at a part’s end whole', async () => {
    const progress: string[] = [];
    let wrapper: VueWrapper | null = null;
    fake = installFakeApi(deskHandlers({ 'drafts:importCsvPart': uploads(() => progress.push(wrapper?.find('[role=status]').text() ?? '')) }));
    wrapper = mountPanel();
    // "é" is two bytes in UTF-8: its first falls on the last byte of the first part.
    const content = `sku,price,quantity,user_note\n${'5021;6,4.50,1,plain\n'.repeat(52_630)}`.slice(0, CSV_PART_SIZE - 1);
    const text = `${content}é\n${'5021;6,4.50,1,plain\n'.repeat(60_000)}`;
    const file = new File([text], 'orders.csv', { type: 'text/csv' });
    expect(file.size).toBeGreaterThan(2 * CSV_PART_SIZE);
    await chooseFile(wrapper, file);
    expect(wrapper.text()).toContain('orders.csv');
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();

    const parts = fake.callsTo('drafts:importCsvPart') as Part[];
    expect(parts).toHaveLength(3);
    expect(parts.map((p) => ('kind' in p ? 'kind' : p.upload))).toEqual(['kind', 'u1', 'u1']);
    expect(parts.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(parts.map((p) => p.last)).toEqual([false, false, true]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.every((p) => p.text.length <= CSV_PART_MAX_CHARS)).toBe(true);
    expect(parts[1]?.text.startsWith('é')).toBe(true);
    expect(progress).toEqual(['Checking… 0 %', 'Checking… 45 %', 'Checking… 90 %']);
    expect((wrapper.get('textarea').element as HTMLTextAreaElement).value).toBe('');
    expect(wrapper.find('[role=status]').exists()).toBe(false);
    expect(wrapper.text()).toContain('1 row ready');
  });

  it('sends pasted text instead of the chosen file once the trader types, and stops sending when closed', async () => {
    let wrapper: VueWrapper | null = null;
    fake = installFakeApi(deskHandlers({ 'drafts:importCsvPart': uploads((part) => void ('kind' in part && part.text.startsWith('big') && wrapper?.unmount())) }));
    wrapper = mountPanel();
    await chooseFile(wrapper, new File(['sku,price,quantity\n'], 'chosen.csv'));
    await wrapper.get('textarea').setValue('sku,price,quantity\n5021;6,4.50,1\n');
    expect(wrapper.text()).not.toContain('chosen.csv');
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:importCsvPart')).toEqual([{ kind: 'buyOrders', seq: 1, text: 'sku,price,quantity\n5021;6,4.50,1\n', last: true }]);

    // A paste of three parts, the panel closed while the first is read: nothing more is sent.
    await wrapper.get('textarea').setValue(`big${'x'.repeat(2 * CSV_PART_SIZE + 10)}`);
    await checkButton(wrapper)?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:importCsvPart')).toHaveLength(2);
  });
});

import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import ConfirmDialog from '../../../src-renderer/src/components/ConfirmDialog.vue';

afterEach(() => {
  document.body.innerHTML = '';
});

/** Presses Tab (or Shift+Tab) on what has the focus, moving it as the browser does when the dialog lets it. */
function tab(shift = false): void {
  const from = document.activeElement as HTMLElement;
  const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey: shift, bubbles: true, cancelable: true });
  from.dispatchEvent(event);
  if (event.defaultPrevented) return;
  const order = [...document.querySelectorAll<HTMLElement>('button, input')].filter((el) => !el.matches(':disabled'));
  const next = order[order.indexOf(from) + (shift ? -1 : 1)];
  if (next) next.focus();
  else from.blur();
}

describe('ConfirmDialog', () => {
  it('keeps Tab inside while its confirm button is off: past Cancel it comes round to the first control, not the page behind', async () => {
    const behind = document.createElement('button');
    behind.textContent = 'Behind';
    const host = document.createElement('div');
    document.body.append(host, behind);
    const w = mount(ConfirmDialog, {
      attachTo: host,
      props: { open: true, title: 'Apply these price changes?', confirmLabel: 'Apply these prices', confirmDisabled: true },
      slots: { default: '<label><input type="checkbox" /> I mean them</label>' },
    });
    await w.vm.$nextTick();
    await w.vm.$nextTick();
    const cancel = w.findAll('button').find((b) => b.text() === 'Cancel');
    expect(document.activeElement).toBe(cancel?.element);
    tab();
    expect(document.activeElement).toBe(w.find('input[type=checkbox]').element);
    tab(true);
    expect(document.activeElement).not.toBe(behind);
    expect(w.element.contains(document.activeElement)).toBe(true);
    w.unmount();
  });
});

import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, ref, type ShallowRef } from 'vue';
import { useLivePreview } from '../../../src-renderer/src/composables/live-preview.ts';

/** A form's preview as main answers it: asked once a burst settles, the latest ask's answer only. */

interface Ask { readonly input: string; resolve(answer: string): void; reject(error: Error): void }

function setup() {
  const text = ref<string | null>('a');
  const selection = ref(1);
  const asks: Ask[] = [];
  let preview!: Readonly<ShallowRef<string | null>>;
  const wrapper = mount(defineComponent({
    setup() {
      preview = useLivePreview(
        () => text.value,
        (input: string) => new Promise<string>((resolve, reject) => asks.push({ input, resolve, reject })),
        { delayMs: 100, sources: [() => selection.value] },
      );
      return () => h('p', preview.value ?? '');
    },
  }));
  return { text, selection, asks, preview: () => preview.value, wrapper };
}

const settle = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
  await nextTick();
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useLivePreview', () => {
  it('asks once a burst of changes settles, and shows the answer', async () => {
    const f = setup();
    for (const t of ['ab', 'abc', 'abcd']) {
      f.text.value = t;
      await settle(50);
    }
    expect(f.asks).toHaveLength(0);
    await settle(100);
    expect(f.asks.map((a) => a.input)).toEqual(['abcd']);
    f.asks[0]?.resolve('4 letters');
    await settle(0);
    expect(f.preview()).toBe('4 letters');
    // The other sources ask again too.
    f.selection.value = 2;
    await settle(100);
    expect(f.asks.map((a) => a.input)).toEqual(['abcd', 'abcd']);
  });

  it('drops an older ask\'s late answer, and any answer once the form stops asking', async () => {
    const f = setup();
    await settle(100);
    f.text.value = 'b';
    await settle(100);
    f.asks[1]?.resolve('b answered');
    f.asks[0]?.resolve('a answered late');
    await settle(0);
    expect(f.preview()).toBe('b answered');

    f.text.value = 'c';
    await settle(100);
    f.text.value = null;
    await settle(0);
    expect(f.preview()).toBeNull();
    f.asks[2]?.resolve('c answered after the form went invalid');
    await settle(0);
    expect(f.preview()).toBeNull();
  });

  it('clears on a refused ask, and asks nothing after it is unmounted', async () => {
    const f = setup();
    await settle(100);
    f.asks[0]?.reject(new Error('busy'));
    await settle(0);
    expect(f.preview()).toBeNull();
    f.text.value = 'd';
    f.wrapper.unmount();
    await settle(500);
    expect(f.asks).toHaveLength(1);
  });
});

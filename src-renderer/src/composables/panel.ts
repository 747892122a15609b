import { nextTick, onBeforeUnmount, onMounted, type Ref } from 'vue';

/**
 * Panels and dialogs that close on Escape, the most recently opened first.
 * One window listener serves them all; a key an inner control already
 * handled (an inline editor cancelling its edit, a select closing its list)
 * is left alone.
 */
interface Closer {
  readonly close: () => void;
  readonly active: () => boolean;
}

const stack: Closer[] = [];
let listening = false;

function onKeydown(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  for (let i = stack.length - 1; i >= 0; i--) {
    const closer = stack[i] as Closer;
    if (!closer.active()) continue;
    e.preventDefault();
    closer.close();
    return;
  }
}

/** Escape calls `close` while the component is mounted (and `active()` holds, for a dialog that is mounted closed). */
export function useEscapeToClose(close: () => void, active: () => boolean = () => true): void {
  const closer: Closer = { close, active };
  onMounted(() => {
    stack.push(closer);
    if (!listening) {
      window.addEventListener('keydown', onKeydown);
      listening = true;
    }
  });
  onBeforeUnmount(() => {
    const i = stack.indexOf(closer);
    if (i >= 0) stack.splice(i, 1);
  });
}

/** The fields of a panel, before its buttons (the first button is usually its ✕). */
const FIELDS = 'input:not([type=hidden]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';
const BUTTONS = 'button:not(:disabled), [tabindex="0"]';

/**
 * A panel that opens in place (create, bulk edit, CSV import): Escape closes
 * it, its first field takes the focus when it opens, and the focus goes back
 * to what opened it when it closes, so a keyboard user never loses their place.
 */
export function usePanel(root: Ref<HTMLElement | null>, close: () => void): void {
  let opener: HTMLElement | null = null;
  useEscapeToClose(close);
  onMounted(async () => {
    opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    await nextTick();
    const el = root.value;
    (el?.querySelector<HTMLElement>(FIELDS) ?? el?.querySelector<HTMLElement>(BUTTONS))?.focus();
  });
  onBeforeUnmount(() => {
    const inside = root.value?.contains(document.activeElement) ?? false;
    if ((inside || document.activeElement === document.body) && opener?.isConnected) opener.focus();
  });
}

import type { ViewId } from './nav.ts';
import { VIEWS } from './nav.ts';

/**
 * The desk-wide keyboard shortcuts, decided from a key event's fields alone so
 * they can be tested without a DOM. Ctrl on Windows/Linux and Cmd on macOS are
 * treated alike.
 */
export type Shortcut =
  | { kind: 'navigate'; view: ViewId }
  | { kind: 'search' }
  | { kind: 'apply' }
  | { kind: 'selectAll' }
  | { kind: 'escape' };

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function matchShortcut(e: KeyLike, inTextField: boolean): Shortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  if (e.altKey && !mod) {
    // e.code survives keyboard layouts where Alt+digit types a symbol.
    const digit = /^Digit([1-9])$/.exec(e.code ?? '')?.[1] ?? (/^[1-9]$/.test(e.key) ? e.key : undefined);
    if (digit !== undefined) {
      const view = VIEWS[Number(digit) - 1];
      if (view) return { kind: 'navigate', view: view.id };
    }
    return null;
  }
  if (mod && !e.altKey && e.key.toLowerCase() === 'f') return { kind: 'search' };
  if (mod && e.key === 'Enter') return { kind: 'apply' };
  if (mod && !e.altKey && e.key.toLowerCase() === 'a' && !inTextField) return { kind: 'selectAll' };
  if (!mod && !e.altKey && e.key === '/' && !inTextField) return { kind: 'search' };
  if (e.key === 'Escape') return { kind: 'escape' };
  return null;
}

/** Whether the event's target takes typed text (so '/' and Ctrl+A belong to it). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  }
  return false;
}

/**
 * The theme's colours as a canvas needs them: the desk's colours are CSS
 * `light-dark()` pairs, which only an element can resolve, so a hidden probe
 * reads each one as the page draws it now. `watchTheme` says when they may
 * have changed (the trader's theme setting, or the system's).
 */
export interface ThemeColors {
  readonly text: string;
  readonly grid: string;
  readonly sales: string;
  readonly purchases: string;
  readonly balance: string;
  readonly balanceFill: string;
  readonly font: string;
}

const VARS = { text: '--text-3', grid: '--border', sales: '--ok', purchases: '--action', balance: '--accent' } as const;

export function readThemeColors(inside: HTMLElement): ThemeColors {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  inside.append(probe);
  const read = (name: string) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const out = Object.fromEntries(Object.entries(VARS).map(([k, v]) => [k, read(v)])) as Record<keyof typeof VARS, string>;
  probe.remove();
  return { ...out, balanceFill: withAlpha(out.balance, 0.12), font: getComputedStyle(inside).fontFamily };
}

/** "rgb(36, 86, 199)" → "rgba(36, 86, 199, 0.12)"; other forms are kept as they are. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  return m ? `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${alpha})` : color;
}

/** Calls `changed` when the theme may have changed; returns the way to stop. */
export function watchTheme(changed: () => void): () => void {
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', changed);
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    media.removeEventListener('change', changed);
    observer.disconnect();
  };
}

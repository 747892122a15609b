import { join } from 'node:path';
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import { type ShellState, type TrayIconName, type TrayMenuId, type TrayMenuItem, trayPresentation } from '../../core/shell/tray-state.ts';

/**
 * The tray icon: the app's face while its window is hidden. What it shows is
 * decided by core/shell/tray-state.ts; this file only puts it on the tray and
 * turns menu clicks into the callbacks it was given.
 */

export interface TrayDeps {
  /** Folder holding `<state>.png` and `<state>@2x.png` (build/icons/tray, or resources/tray when packaged). */
  readonly iconDir: string;
  readonly initial: ShellState;
  readonly onOpen: () => void;
  readonly onToggleAutomation: () => void;
  readonly onCheckTrades: () => void;
  /** The apply-progress item: opens the apply view. Defaults to onOpen. */
  readonly onOpenJob?: () => void;
  readonly onQuit: () => void;
  /** "Update ready — restart". */
  readonly onRestartToUpdate?: () => void;
}

export interface DeskTray {
  /** Shows a new state; does nothing the tray already shows. */
  update(state: ShellState): void;
  destroy(): void;
}

export function trayIconPath(iconDir: string, icon: TrayIconName): string {
  return join(iconDir, `${icon}.png`);
}

export function createTray(deps: TrayDeps): DeskTray {
  const actions: Record<TrayMenuId, () => void> = {
    open: deps.onOpen,
    'toggle-automation': deps.onToggleAutomation,
    'check-trades': deps.onCheckTrades,
    job: deps.onOpenJob ?? deps.onOpen,
    update: deps.onRestartToUpdate ?? (() => undefined),
    quit: deps.onQuit,
  };
  const first = trayPresentation(deps.initial);
  // createFromPath picks the @2x file on high-density screens by itself.
  const tray = new Tray(nativeImage.createFromPath(trayIconPath(deps.iconDir, first.icon)));
  tray.setToolTip(first.tooltip);
  tray.setContextMenu(buildMenu(first.menu, actions));
  // Windows and most Linux trays: a click opens the window; the menu is on right-click.
  tray.on('click', deps.onOpen);

  let shown = first;
  return {
    update(state) {
      const next = trayPresentation(state);
      if (next.icon !== shown.icon) tray.setImage(nativeImage.createFromPath(trayIconPath(deps.iconDir, next.icon)));
      if (next.tooltip !== shown.tooltip) tray.setToolTip(next.tooltip);
      // Linux (AppIndicator) shows menu changes only when the menu is set again.
      if (JSON.stringify(next.menu) !== JSON.stringify(shown.menu)) tray.setContextMenu(buildMenu(next.menu, actions));
      shown = next;
    },
    destroy() {
      tray.destroy();
    },
  };
}

function buildMenu(items: readonly TrayMenuItem[], actions: Record<TrayMenuId, () => void>): Menu {
  const template: MenuItemConstructorOptions[] = [];
  for (const item of items) {
    if (item.separatorBefore) template.push({ type: 'separator' });
    template.push({ id: item.id, label: item.label, enabled: item.enabled, click: () => actions[item.id]() });
  }
  return Menu.buildFromTemplate(template);
}

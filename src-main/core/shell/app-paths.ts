import { join } from 'node:path';

/**
 * Where the files the main process reads at run time are, in development and
 * in a packaged app. One function, so the composition root and the packaging
 * test (which checks each of these is inside the installer's file set) cannot
 * disagree.
 */
export interface AppPathsInput {
  /** `app.isPackaged`. */
  readonly packaged: boolean;
  /** The folder of the built main bundle (out/main, inside app.asar when packaged). */
  readonly mainDir: string;
  /** `app.getAppPath()`: the project folder in development. */
  readonly appPath: string;
  /** `process.resourcesPath`: where extraResources land when packaged. */
  readonly resourcesPath: string;
}

export interface AppPaths {
  /** The sandboxed preload, CommonJS. */
  readonly preload: string;
  /** The built renderer, served as app://desk/. */
  readonly rendererDir: string;
  /** Tray icons `<state>.png` and `<state>@2x.png`. */
  readonly trayIconDir: string;
  /** The window and notification icon. */
  readonly appIcon: string;
}

export function appPaths(input: AppPathsInput): AppPaths {
  // build/electron-builder.yml copies build/icons/tray and the 256 px icon to resources/icons.
  const iconRoot = input.packaged ? join(input.resourcesPath, 'icons') : join(input.appPath, 'build', 'icons');
  return {
    preload: join(input.mainDir, '..', 'preload', 'index.cjs'),
    rendererDir: join(input.mainDir, '..', 'renderer'),
    trayIconDir: join(iconRoot, 'tray'),
    appIcon: join(iconRoot, '256x256.png'),
  };
}

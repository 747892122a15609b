import { join, resolve } from 'node:path';

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

/**
 * `--user-data-dir=<folder>`: the profile (store, settings, logs, window
 * state) in that folder instead of the OS's place for the app, so a test
 * can run the real app on a temporary profile beside a trader's own.
 */
export const USER_DATA_FLAG = '--user-data-dir';

/** The folder `--user-data-dir=` names (made absolute), or null. */
export function userDataDirFrom(argv: readonly string[]): string | null {
  const arg = argv.find((a) => a.startsWith(`${USER_DATA_FLAG}=`));
  const dir = arg?.slice(USER_DATA_FLAG.length + 1).trim();
  return dir ? resolve(dir) : null;
}

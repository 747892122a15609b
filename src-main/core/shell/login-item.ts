/**
 * Starting with the session: the app opens hidden, straight to the tray, so
 * the heartbeat runs from login without a window in the way. Windows and
 * macOS register this through Electron; Linux desktops read an XDG autostart
 * entry, written from the text built here.
 */

/** Passed on the command line of a login start: open in the tray, not the window. */
export const START_HIDDEN_FLAG = '--hidden';

/** Whether this launch should stay in the tray (login start), from argv and the OS's own report. */
export function shouldStartHidden(argv: readonly string[], openedAtLogin = false): boolean {
  return openedAtLogin || argv.includes(START_HIDDEN_FLAG);
}

export interface AutostartEntryOptions {
  readonly name: string;
  /** The executable; an AppImage must be started through its own file, not the mounted copy. */
  readonly execPath: string;
  readonly comment?: string;
}

/** The program a Linux autostart entry should run: the AppImage file when there is one. */
export function autostartExecPath(execPath: string, env: Readonly<Record<string, string | undefined>>): string {
  return env.APPIMAGE !== undefined && env.APPIMAGE !== '' ? env.APPIMAGE : execPath;
}

/** The XDG autostart `.desktop` entry text. */
export function autostartEntry(options: AutostartEntryOptions): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${oneLine(options.name)}`,
    ...(options.comment ? [`Comment=${oneLine(options.comment)}`] : []),
    `Exec=${quoteExecArg(options.execPath)} ${START_HIDDEN_FLAG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * The Desktop Entry spec's quoting for an Exec argument: double quotes, with
 * `"`, `` ` ``, `$` and `\` escaped by a backslash, and `%` doubled (field codes).
 */
function quoteExecArg(arg: string): string {
  const escaped = arg.replace(/["`$\\]/g, (c) => `\\${c}`).replace(/%/g, '%%');
  return `"${escaped}"`;
}

import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { cleanLogText, cleanLogValue } from './log-line.ts';
import type { LogLevel } from './log-levels.ts';
import { openRotatingFile } from './rotating-file.ts';

/**
 * The main process's log: one JSON line per event in rotating files in the
 * profile's logs folder, for the trader to send with a bug report.
 *
 * pino rather than electron-log: it is a plain Node library, so the log is
 * written and tested without Electron and core code can use it; it writes one
 * JSON object per line by construction (a bug report can be read by a tool);
 * and electron-log's main entry would also bind an IPC channel of its own for
 * renderer logs, outside the contract the app checks every channel against.
 * Rotation is a small synchronous file of our own (rotating-file.ts): strict
 * size bounds, and a crash's last line already on disk.
 */
export { LOG_LEVELS, type LogLevel } from './log-levels.ts';

export type LogFields = Record<string, unknown>;

export interface AppLog {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A value that must never be written (the API key, once known); every later line is scrubbed of it. */
  addSecret(secret: string | null | undefined): void;
  /** The log files, newest first. */
  files(): string[];
  /** The newest lines, up to about `maxBytes` of text, oldest first (for a diagnostics bundle). */
  recent(maxBytes: number): string[];
  close(): void;
}

export interface AppLogOptions {
  readonly dir: string;
  /** Default 'info'. */
  readonly level?: LogLevel;
  /** Default 1 MiB a file. */
  readonly maxFileBytes?: number;
  /** Default 5 files: 5 MiB at most in all. */
  readonly maxFiles?: number;
}

/**
 * Where a log's lines go, one JSON object a line: the profile's rotating
 * files (the desktop app), or standard output for journald (the server).
 */
export interface LogSink {
  write(line: string): void;
  files(): string[];
  recent(maxBytes: number): string[];
  close(): void;
}

export function openAppLog(options: AppLogOptions): AppLog {
  const file = openRotatingFile({ dir: options.dir, maxBytes: options.maxFileBytes ?? 1024 * 1024, maxFiles: options.maxFiles ?? 5 });
  return logTo({
    write: (line) => file.write(line),
    files: () => file.files(),
    recent: (maxBytes) => recentLines(file.files(), maxBytes),
    close: () => file.close(),
  }, options.level);
}

/** A log written to `sink`: each line scrubbed of the secrets it was told and of unsafe characters. */
export function logTo(sink: LogSink, level: LogLevel = 'info'): AppLog {
  const secrets = new Set<string>();
  const logger = pino(
    {
      level,
      // No pid or hostname: a bug report needs neither, and the hostname often names the person.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => sink.write(line) },
  );
  let closed = false;
  const at = (lineLevel: LogLevel) => (message: string, fields?: LogFields) => {
    if (closed) return;
    const clean = fields === undefined ? {} : (cleanLogValue(fields, secrets) as Record<string, unknown>);
    logger[lineLevel](clean, cleanLogText(message, secrets));
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    addSecret(secret) {
      if (secret) secrets.add(secret);
    },
    files: () => sink.files(),
    recent: (maxBytes) => sink.recent(maxBytes),
    close() {
      if (closed) return;
      closed = true;
      sink.close();
    },
  };
}

/** The newest lines of the log files (newest file first), up to about `maxBytes`, oldest first. */
function recentLines(files: readonly string[], maxBytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (const path of files) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const fileLines = text.split('\n').filter((l) => l !== '');
    for (let i = fileLines.length - 1; i >= 0; i--) {
      const line = fileLines[i] as string;
      size += line.length + 1;
      if (size > maxBytes) return lines.reverse();
      lines.push(line);
    }
  }
  return lines.reverse();
}

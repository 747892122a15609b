import { logTo, type AppLog, type LogLevel } from '../../core/shell/app-log.ts';

/**
 * The server's log: one JSON line per event on standard output, where
 * journald (or `docker logs`) keeps it, scrubbed of the key as the app's
 * file log is. The newest lines are also kept in memory, for the
 * diagnostics a trader downloads.
 */
export interface StdoutLogOptions {
  readonly level?: LogLevel;
  /** Where each line goes; default standard output. */
  readonly write?: (line: string) => void;
  /** How much of the newest text is kept for diagnostics; default 256 KiB. */
  readonly keepBytes?: number;
}

export function openStdoutLog(options: StdoutLogOptions = {}): AppLog {
  const write = options.write ?? ((line: string) => void process.stdout.write(line));
  const keepBytes = options.keepBytes ?? 256 * 1024;
  const kept: string[] = [];
  let keptBytes = 0;
  return logTo({
    write(line) {
      write(line);
      const text = line.trimEnd();
      kept.push(text);
      keptBytes += text.length + 1;
      while (keptBytes > keepBytes && kept.length > 1) keptBytes -= (kept.shift() as string).length + 1;
    },
    files: () => [],
    recent(maxBytes) {
      const out: string[] = [];
      let size = 0;
      for (let i = kept.length - 1; i >= 0; i--) {
        const line = kept[i] as string;
        size += line.length + 1;
        if (size > maxBytes) break;
        out.push(line);
      }
      return out.reverse();
    },
    close: () => undefined,
  }, options.level);
}

import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A log file that never grows past its limit: `main.log` is written; when a
 * line would take it past `maxBytes` it becomes `main.1.log`, the older ones
 * move up one, and the oldest beyond `maxFiles` is deleted. Writes are
 * synchronous appends: the line that explains a crash is on disk before the
 * crash, and the main process writes a few lines a minute, not a stream.
 */
export interface RotatingFileOptions {
  readonly dir: string;
  /** Default 'main': files `main.log`, `main.1.log`, … */
  readonly name?: string;
  readonly maxBytes: number;
  /** Files kept, the current one included. */
  readonly maxFiles: number;
}

export interface RotatingFile {
  /** Appends one line (which must end with a newline). */
  write(line: string): void;
  /** Every file, newest first. */
  files(): string[];
  close(): void;
}

export function openRotatingFile(options: RotatingFileOptions): RotatingFile {
  const name = options.name ?? 'main';
  if (!(options.maxBytes > 0) || !(options.maxFiles >= 1)) throw new RangeError('a log needs a positive size and at least one file');
  const path = (n: number) => join(options.dir, n === 0 ? `${name}.log` : `${name}.${n}.log`);
  mkdirSync(options.dir, { recursive: true });
  let fd = openSync(path(0), 'a');
  let size = statSync(path(0)).size;

  const rotate = () => {
    closeSync(fd);
    rmSync(path(options.maxFiles - 1), { force: true });
    for (let n = options.maxFiles - 2; n >= 0; n--) {
      try {
        renameSync(path(n), path(n + 1));
      } catch {
        // A gap in the numbering (a file deleted by hand) is fine.
      }
    }
    fd = openSync(path(0), 'a');
    size = 0;
  };

  return {
    write(line) {
      const bytes = Buffer.byteLength(line);
      // An empty file takes the line whatever its size: a line is never split or dropped.
      if (size > 0 && size + bytes > options.maxBytes) {
        if (options.maxFiles === 1) {
          closeSync(fd);
          fd = openSync(path(0), 'w');
          size = 0;
        } else {
          rotate();
        }
      }
      writeSync(fd, line);
      size += bytes;
    },
    files() {
      const out: string[] = [];
      for (let n = 0; n < options.maxFiles; n++) {
        try {
          statSync(path(n));
          out.push(path(n));
        } catch {
          // Not there (yet).
        }
      }
      return out;
    },
    close() {
      closeSync(fd);
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * What the desk's tests share: things to close and folders to remove after
 * each test (closed newest first).
 */
export function deskTestScope(prefix: string): { opened: Array<{ close(): Promise<void> }>; tempDir(): string } {
  const opened: Array<{ close(): Promise<void> }> = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    opened,
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
  };
}

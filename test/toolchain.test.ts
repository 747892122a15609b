import { describe, expect, it } from 'vitest';

describe('toolchain', () => {
  it('runs on Node 24 or newer, where node:sqlite is built in', async () => {
    // `npm ci --ignore-scripts` silently skips the pinned Node; this catches it.
    const major = Number(process.versions.node.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(24);
    const sqlite = await import('node:sqlite');
    expect(typeof sqlite.DatabaseSync).toBe('function');
  });
});

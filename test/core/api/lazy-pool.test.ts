import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lazyPool } from '../../../src-main/core/api/transport.ts';

/** The CommonJS files Node has loaded in this test file's worker (undici is CommonJS). */
const loadedFiles = () => Object.keys(createRequire(import.meta.url).cache);

describe('lazyPool', () => {
  it("loads undici's Pool alone, not the package's index with fetch, WebSocket and the rest", async () => {
    expect(loadedFiles().some((file) => file.includes('/undici/'))).toBe(false);
    const pool = lazyPool('http://127.0.0.1:9', {});
    const dispatcher = await pool.get();
    expect(typeof dispatcher.dispatch).toBe('function');
    const undiciFiles = loadedFiles().filter((file) => file.includes('/undici/'));
    expect(undiciFiles.some((file) => file.endsWith('/undici/lib/dispatcher/pool.js'))).toBe(true);
    expect(undiciFiles.filter((file) => /\/undici\/(index\.js|lib\/web\/fetch\/index\.js)$/.test(file))).toEqual([]);
    await pool.close();
  });
});

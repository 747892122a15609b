import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWindowStateFile } from '../../../src-main/core/shell/window-state-file.ts';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'window-state-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

const state = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true };

describe('createWindowStateFile', () => {
  it('reads back what it saved, creating the folder', async () => {
    const store = createWindowStateFile(join(dir, 'nested', 'window.json'));
    expect(await store.load()).toBeNull();
    await store.save(state);
    expect(await store.load()).toEqual(state);
    expect(await createWindowStateFile(join(dir, 'nested', 'window.json')).load()).toEqual(state);
  });

  it('reads a truncated or foreign file as no saved state', async () => {
    const file = join(dir, 'window.json');
    await writeFile(file, '{"bounds":{"x":1', 'utf8');
    expect(await createWindowStateFile(file).load()).toBeNull();
    await writeFile(file, JSON.stringify({ bounds: { x: 0, y: 0, width: -5, height: 1 }, maximized: false }), 'utf8');
    expect(await createWindowStateFile(file).load()).toBeNull();
  });

  it('refuses to write an invalid state and leaves the old one', async () => {
    const file = join(dir, 'window.json');
    const store = createWindowStateFile(file);
    await store.save(state);
    await expect(store.save({ bounds: { x: 0.5, y: 0, width: 1, height: 1 }, maximized: false })).rejects.toThrow();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(state);
  });
});

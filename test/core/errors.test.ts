import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError, quoted, storeBusy } from '../../src-main/core/errors.ts';
import { openStore, type Store } from '../../src-main/core/store/db.ts';

let dir = '';
let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('desk errors', () => {
  it('a transaction that cannot get the write lock is busy, and the store still works after', () => {
    dir = mkdtempSync(join(tmpdir(), 'desk-error-'));
    const path = join(dir, 'p.sqlite');
    store = openStore(path, { busyTimeoutMs: 50 });
    const other = new DatabaseSync(path);
    other.exec('BEGIN IMMEDIATE');
    let thrown: unknown;
    try {
      store.transaction(() => store?.db.exec("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 0)"));
    } catch (error) {
      thrown = error;
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ kind: 'busy' });
    store.transaction(() => store?.db.exec("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 0)"));
    expect(store.db.prepare("SELECT value FROM settings WHERE key = 'a'").get()).toEqual({ value: '1' });
  });

  it('tells SQLite’s lock errors from the others', () => {
    const locked = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    const lockedShared = Object.assign(new Error('database table is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 6 | (1 << 8) });
    const constraint = Object.assign(new Error('UNIQUE constraint failed'), { code: 'ERR_SQLITE_ERROR', errcode: 2067 });
    expect(storeBusy(locked)?.kind).toBe('busy');
    expect(storeBusy(lockedShared)?.kind).toBe('busy');
    expect(storeBusy(constraint)).toBeNull();
    expect(storeBusy('database is locked')).toBeNull();
  });

  it('quotes an ID short and printable, whatever arrived', () => {
    expect(quoted('d-1')).toBe('“d-1”');
    expect(quoted(`a\u0000b\u202ec\n${'x'.repeat(1_000_000)}`)).toMatch(/^“a\uFFFDb\uFFFDc\uFFFDx{34}… \(999966 more characters\)”$/);
  });
});

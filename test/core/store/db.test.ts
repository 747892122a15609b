import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { openStore, readPragma } from '../../../src-main/core/store/db.ts';
import { LATEST_VERSION } from '../../../src-main/core/store/migrations.ts';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore | undefined;
afterEach(() => t?.dispose());

describe('openStore', () => {
  it('opens a file in WAL with synchronous=FULL, foreign keys on and the latest schema', () => {
    t = tempStore({ seedAccounts: false });
    expect(readPragma(t.store, 'journal_mode')).toBe('wal');
    expect(readPragma(t.store, 'synchronous')).toBe(2); // FULL
    expect(readPragma(t.store, 'foreign_keys')).toBe(1);
    expect(readPragma(t.store, 'user_version')).toBe(LATEST_VERSION);
  });

  it('creates the profile folder when it does not exist yet', () => {
    t = tempStore({ seedAccounts: false });
    const nested = openStore(`${t.dir}/a/b/profile.sqlite`);
    expect(readPragma(nested, 'user_version')).toBe(LATEST_VERSION);
    nested.close();
  });

  it('rolls a failed transaction back and keeps what committed before', () => {
    t = tempStore({ seedAccounts: false });
    const { store, repos } = t;
    repos.settings.set('a', 1);
    expect(() =>
      store.transaction(() => {
        repos.settings.set('b', 2);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(repos.settings.keys()).toEqual(['a']);
  });

  it('turns a nested transaction into a savepoint that can fail alone', () => {
    t = tempStore({ seedAccounts: false });
    const { store, repos } = t;
    store.transaction(() => {
      repos.settings.set('outer', 1);
      try {
        store.transaction(() => {
          repos.settings.set('inner', 2);
          throw new Error('inner fails');
        });
      } catch {
        // the outer work goes on
      }
    });
    expect(repos.settings.keys()).toEqual(['outer']);
  });

  it('keeps committed rows across a close without checkpoint (read back by a second connection)', () => {
    t = tempStore({ seedAccounts: false });
    t.repos.settings.set('theme', 'dark');
    // A second connection sees the committed row through the WAL, as a restart would.
    const other = new DatabaseSync(t.path);
    const row = other.prepare('SELECT value FROM settings WHERE key = ?').get('theme') as { value: string };
    other.close();
    expect(JSON.parse(row.value)).toBe('dark');
  });

  it('refuses a database written by a newer version of the app', () => {
    t = tempStore({ seedAccounts: false });
    t.store.db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    t.store.close();
    expect(() => openStore(t!.path)).toThrow(/newer than this app knows/);
    t.store = openStore(':memory:');
  });
});

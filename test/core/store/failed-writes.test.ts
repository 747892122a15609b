import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src-main/core/errors.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * A write the disk refuses (full, or an I/O error) and a COMMIT that fails
 * are rolled back whole, and the store goes on working: SQLite's own
 * answers, produced for real (a page limit, a deferred constraint), no mock.
 */

let t: TempStore | undefined;
afterEach(() => t?.dispose());

const keys = () => t?.repos.settings.keys() ?? [];

/** Fills the file up to its page limit with rows of `size` bytes until SQLite refuses. */
function fillUp(store: TempStore['store']): unknown {
  store.db.exec('CREATE TABLE IF NOT EXISTS filler (blob BLOB)');
  try {
    for (let i = 0; i < 10_000; i++) store.transaction(() => store.db.prepare('INSERT INTO filler VALUES (zeroblob(4000))').run());
  } catch (error) {
    return error;
  }
  throw new Error('the page limit never refused a write');
}

describe('a failed write leaves the store usable', () => {
  it('a COMMIT that fails is rolled back, and nested transactions work after it', () => {
    t = tempStore({ seedAccounts: false });
    const { store, repos } = t;
    // A deferred foreign key is checked at COMMIT: SQLite refuses the COMMIT itself.
    store.db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    expect(() => store.transaction(() => {
      repos.settings.set('lost', 1);
      store.db.exec('INSERT INTO child VALUES (7)');
    })).toThrow(/FOREIGN KEY constraint failed/);
    expect(store.db.isTransaction).toBe(false);
    expect(keys()).toEqual([]);
    // Before, the nesting depth went below zero here: `SAVEPOINT sp-1` is a syntax error.
    store.transaction(() => {
      repos.settings.set('outer', 1);
      store.transaction(() => repos.settings.set('inner', 2));
    });
    expect(keys().sort()).toEqual(['inner', 'outer']);
  });

  it('a full disk is a `disk_full` error, nothing of the transaction is kept, and writes work once there is room', () => {
    t = tempStore({ seedAccounts: false });
    const { store, repos } = t;
    repos.settings.set('before', 1);
    const pages = (store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    store.setPageLimit(pages + 4);
    const refused = fillUp(store);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'disk_full', message: expect.stringMatching(/^The disk is full.*Nothing saved before is lost/) });
    // A nested write fails with the same sentence, never "no such savepoint".
    expect(() => store.transaction(() => {
      repos.settings.set('half', 1);
      store.transaction(() => store.db.prepare('INSERT INTO filler VALUES (zeroblob(40000))').run());
    })).toThrow(expect.objectContaining({ kind: 'disk_full' }));
    expect(store.db.isTransaction).toBe(false);
    expect(keys()).toEqual(['before']);
    store.setPageLimit(null);
    store.transaction(() => {
      repos.settings.set('after', 2);
      store.transaction(() => store.db.prepare('INSERT INTO filler VALUES (zeroblob(40000))').run());
    });
    expect(keys().sort()).toEqual(['after', 'before']);
  });

  it('an enclosing step that catches a nested step’s full disk and goes on keeps nothing either', () => {
    t = tempStore({ seedAccounts: false });
    const { store, repos } = t;
    store.db.exec('CREATE TABLE filler (blob BLOB)');
    const pages = (store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    store.setPageLimit(pages + 1);
    let inner: unknown;
    expect(() => store.transaction(() => {
      repos.settings.set('first', 1);
      try {
        store.transaction(() => store.db.prepare('INSERT INTO filler VALUES (zeroblob(40000))').run());
      } catch (error) {
        inner = error;
      }
      // SQLite rolled the whole transaction back: this row must not be committed on its own.
      repos.settings.set('second', 2);
    })).toThrow(expect.objectContaining({ kind: 'disk_full' }));
    expect(inner).toMatchObject({ kind: 'disk_full' });
    expect(keys()).toEqual([]);
    store.setPageLimit(null);
    repos.settings.set('later', 3);
    expect(keys()).toEqual(['later']);
  });
});

import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainRows } from '../../../src-main/core/store/sql.ts';

/**
 * Rows read through `plainRows` are what `all()` reads, as ordinary objects:
 * the same fields and values for every way of binding, a name given twice
 * keeping its last value, and the statement left answering objects to its
 * other reads.
 */
describe('plainRows', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, price INTEGER, note TEXT, blob BLOB);
      INSERT INTO t (name, price, note, blob) VALUES ('a', 100, NULL, x'0102'), ('b', 250, 'kept', NULL), ('c', NULL, '', NULL);`);
  });
  afterEach(() => db.close());

  const plain = (rows: readonly object[]) => rows.map((r) => ({ ...r }));

  it('reads what all() reads, bound by position, by name, or both', () => {
    const byPosition = db.prepare('SELECT * FROM t WHERE id >= ? ORDER BY id');
    expect(plainRows(byPosition, 2)).toEqual(plain(byPosition.all(2)));
    const byName = db.prepare('SELECT id, name, price FROM t WHERE price > :least ORDER BY id');
    expect(plainRows(byName, { least: 0 })).toEqual(plain(byName.all({ least: 0 })));
    const both = db.prepare('SELECT name FROM t WHERE price > :least AND id < ? ORDER BY id');
    expect(plainRows(both, { least: 0 }, 3)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(plainRows(db.prepare('SELECT * FROM t WHERE id > 9'))).toEqual([]);
  });

  it('gives objects with a prototype, whose fields read like any object', () => {
    const [row] = plainRows(db.prepare('SELECT * FROM t ORDER BY id LIMIT 1'));
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row).toEqual({ id: 1, name: 'a', price: 100, note: null, blob: new Uint8Array([1, 2]) });
  });

  it('keeps the last value of a name given twice, as all() does', () => {
    const twice = db.prepare('SELECT name, price AS name FROM t WHERE id = 2');
    expect(plainRows(twice)).toEqual(plain(twice.all()));
    expect(plainRows(twice)).toEqual([{ name: 250 }]);
  });

  it('leaves the statement answering objects to its other reads', () => {
    const statement = db.prepare('SELECT id, name FROM t WHERE id = ?');
    plainRows(statement, 1);
    expect(statement.get(2)).toEqual({ id: 2, name: 'b' });
    expect(() => plainRows(statement, 'x', 'y')).toThrow();
    expect(statement.all(3)).toEqual([{ id: 3, name: 'c' }]);
  });
});

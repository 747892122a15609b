import type { Migration } from './migration.ts';

/**
 * What the service said of a trade or the balance that History cannot keep:
 * a total, price, quantity or timestamp out of bounds, a trade listed again
 * with another timestamp. Each is kept as a refusal naming the trade and the
 * field, shown to the trader, and the rest of History goes on. Rows an
 * earlier version kept with such numbers (they made every figure, page and
 * export of their range fail) become refusals here; their items go with them.
 * The bounds are history/trade-bounds.ts's, as they stood when this was written.
 */
const MONEY_MAX = 1_000_000_000;
const EARLIEST_MS = Date.UTC(2003, 0, 1);
const DAY_MS = 86_400_000;
const QUANTITY_MAX = 1_000_000;

const badItem = (field: 'price' | 'quantity') => field === 'price'
  ? `price < 0 OR price > ${MONEY_MAX}`
  : `quantity < 1 OR quantity > ${QUANTITY_MAX} OR quantity * price > ${MONEY_MAX}`;

export const migration: Migration = {
  version: 18,
  name: 'refusals of what the service said',
  sql: `
      -- kind: the trade's type, or 'balance' for a balance reading (ref '').
      CREATE TABLE history_refusals (
        kind TEXT NOT NULL CHECK (kind IN ('market', 'buy_order', 'balance')),
        ref TEXT NOT NULL,
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        reason TEXT NOT NULL,
        first_at INTEGER NOT NULL,
        last_at INTEGER NOT NULL,
        times INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (kind, ref, field)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX history_refusals_last ON history_refusals (last_at);
      -- The trades waiting for their ending, read a page at a time in key order however many left at one moment.
      CREATE INDEX trade_history_left ON trade_history (trade_type, trade_id) WHERE ending = 'left';

      INSERT OR IGNORE INTO history_refusals (kind, ref, field, value, reason, first_at, last_at)
        SELECT trade_type, trade_id, 'total', CAST(total AS TEXT), 'is out of bounds (0 to $10,000,000 in cents)', first_seen_at, last_seen_at
        FROM trade_history WHERE total < 0 OR total > ${MONEY_MAX};
      INSERT OR IGNORE INTO history_refusals (kind, ref, field, value, reason, first_at, last_at)
        SELECT trade_type, trade_id, 'timestamp', CAST(created_at / 1000 AS TEXT), 'is before 2003 or more than a day ahead of the service', first_seen_at, last_seen_at
        FROM trade_history WHERE created_at < ${EARLIEST_MS} OR created_at > first_seen_at + ${DAY_MS};
      INSERT OR IGNORE INTO history_refusals (kind, ref, field, value, reason, first_at, last_at)
        SELECT h.trade_type, h.trade_id, 'items.' || i.position, CAST(i.quantity AS TEXT) || ' × ' || CAST(i.price AS TEXT),
          'a price or quantity out of bounds', h.first_seen_at, h.last_seen_at
        FROM trade_history h JOIN trade_history_items i ON i.trade_type = h.trade_type AND i.trade_id = h.trade_id
        WHERE ${badItem('price')} OR ${badItem('quantity')};
      DELETE FROM trade_history WHERE (trade_type, trade_id) IN (SELECT kind, ref FROM history_refusals WHERE kind != 'balance');

      INSERT INTO history_refusals (kind, ref, field, value, reason, first_at, last_at, times)
        SELECT 'balance', '', 'balance', CAST(max(balance) AS TEXT), 'is out of bounds (±$10,000,000 in cents)', min(at), max(at), count(*)
        FROM balance_readings WHERE abs(balance) > ${MONEY_MAX} OR abs(pending_balance) > ${MONEY_MAX} HAVING count(*) > 0;
      DELETE FROM balance_readings WHERE abs(balance) > ${MONEY_MAX} OR abs(pending_balance) > ${MONEY_MAX};
    `,
};

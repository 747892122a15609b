import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTradeHistory } from './src-main/core/history/trade-history.ts';
import { openStore } from './src-main/core/store/db.ts';
import { createRepos } from './src-main/core/store/index.ts';
import { seedHistoryYear } from './test/support/history-year.ts';
const store = openStore(join(mkdtempSync(join(tmpdir(), 'x-')), 'p.sqlite'));
const h = createTradeHistory({ store, repos: createRepos(store), ownIds: () => [] });
const end = Date.UTC(2026, 2, 16);
seedHistoryYear(h.repo, { end, trades: 10_000, account: '1', linked: '2' });
const from = end - 365 * 86400000;
const C = `('balance_moved','listing_sold')`;
const qs = {
  totals: `SELECT h.side, count(*), sum(h.total) FROM trade_history h WHERE h.at >= ? AND h.at < ? AND h.ending IN ${C} GROUP BY h.side`,
  others: `SELECT sum(h.ending IN ('pending', 'left')), sum(h.ending = 'vanished') FROM trade_history h WHERE h.at >= ? AND h.at < ?`,
  days: `SELECT date(h.at / 1000, 'unixepoch', 'localtime') AS key, h.side, count(*), sum(h.total) FROM trade_history h WHERE h.at >= ? AND h.at < ? AND h.ending IN ${C} GROUP BY key, h.side`,
  top: `SELECT i.sku, sum(i.quantity*i.price) a FROM trade_history h JOIN trade_history_items i ON i.trade_type = h.trade_type AND i.trade_id = h.trade_id WHERE h.at >= ? AND h.at < ? AND h.ending IN ${C} GROUP BY i.sku ORDER BY a DESC LIMIT 10`,
  lts: `SELECT count(*), avg(h.created_at - h.listed_at) FROM trade_history h WHERE h.at >= ? AND h.at < ? AND h.side = 'sale' AND h.ending IN ${C} AND h.listed_at IS NOT NULL`,
};
for (const [k, q] of Object.entries(qs)) {
  let t = performance.now();
  for (let i = 0; i < 5; i++) store.db.prepare(q).all(from, end);
  console.log(k, ((performance.now() - t) / 5).toFixed(2), 'ms', JSON.stringify(store.db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(from, end).map((r: any) => r.detail)));
}
let t = performance.now();
h.summary({ from, to: end, account: null });
console.log('summary', (performance.now() - t).toFixed(1));

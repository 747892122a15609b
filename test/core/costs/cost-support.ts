import { createHistoryRepo, type HistoryRepo } from '../../../src-main/core/store/history-repo.ts';
import type { Store } from '../../../src-main/core/store/db.ts';

/** Records a trade in History as completed at `at` (it left the lists then and the balance moved by it). */
export interface TradeWriter {
  readonly repo: HistoryRepo;
  trade(t: { id: string; side: 'sale' | 'purchase'; at: number; items: readonly { sku: string; quantity: number; price: number }[]; type?: 'market' | 'buy_order'; ending?: 'balance_moved' | 'vanished' | 'pending' }): void;
}

export function tradeWriter(store: Store): TradeWriter {
  const repo = createHistoryRepo(store);
  return {
    repo,
    trade({ id, side, at, items, type = side === 'purchase' ? 'buy_order' : 'market', ending = 'balance_moved' }) {
      const total = items.reduce((s, i) => s + i.quantity * i.price, 0);
      repo.seen({
        trade_type: type, trade_id: id, side, account: '76561198000000001', partner: '76561198000000099', status: 's', total,
        created_at: at - 60_000, items: items.map((i) => ({ ...i, name: i.sku })),
      }, at - 60_000);
      if (ending === 'pending') return;
      repo.left([{ trade_type: type, trade_id: id }], at);
      repo.setEnding(type, id, ending, at);
    },
  };
}

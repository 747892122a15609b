import type { HistoryRepo } from '../../src-main/core/store/history-repo.ts';

/**
 * A year of trading written straight into a history: `trades` completed
 * trades (sales and purchases, a few vanished), spread over 365 days ending
 * at `end`, and a balance reading every five minutes. Fast (the repository's
 * writes, not the recorder's matching), for the benchmarks and the
 * performance test of the History screen.
 */
export function seedHistoryYear(repo: HistoryRepo, options: { end: number; trades: number; account: string; linked: string }): void {
  const DAY = 86_400_000;
  const start = options.end - 365 * DAY;
  let seed = 12_345;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  const names = [['5021;6', 'Mann Co. Supply Crate Key'], ['378;6', 'Team Captain'], ['5002;6', 'Refined Metal'], ['205;11;kt-2', 'Strange Specialized Killstreak Rocket Launcher'], ['378;5;u13', 'Burning Flames Team Captain']] as const;
  repo.store.transaction(() => {
    for (let i = 0; i < options.trades; i++) {
      const at = start + Math.floor((i + random()) * (365 * DAY / options.trades));
      const sale = random() < 0.6;
      const [sku, name] = names[Math.floor(random() * names.length)] ?? names[0];
      const quantity = 1 + Math.floor(random() * 3);
      const price = 50 + Math.floor(random() * 8_000);
      const id = String(7_000_000_000 + i);
      repo.seen({
        trade_type: sale ? 'market' : 'buy_order', trade_id: id, side: sale ? 'sale' : 'purchase',
        account: random() < 0.8 ? options.account : options.linked, partner: '76561198000099999', status: 'Action Required',
        total: price * quantity, created_at: at - 600_000, items: [{ sku, name, quantity, price }],
      }, at - 590_000);
      repo.left([{ trade_type: sale ? 'market' : 'buy_order', trade_id: id }], at);
      repo.setEnding(sale ? 'market' : 'buy_order', id, random() < 0.1 ? 'vanished' : 'balance_moved', at + 300_000);
      if (sale) repo.soldListings('market', id, [], at - 600_000 - Math.floor(random() * 5 * DAY));
    }
    let balance = 500_000;
    for (let at = start; at < options.end; at += 300_000) {
      balance = Math.max(0, balance + Math.floor((random() - 0.5) * 2_000));
      repo.addReading({ at, balance, pending_balance: 0 }, null);
    }
  });
}

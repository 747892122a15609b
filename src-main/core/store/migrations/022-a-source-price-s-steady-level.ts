import type { Migration } from './migration.ts';

/**
 * A source's price keeps, per side, its steady level instead of the price
 * it had before it last changed. The last price alone forgot a jump at the
 * source's next read: once the jumped price drifted a cent, the jump was the
 * "last price" and a reprice took it for the market. The steady level
 * follows the source's drift and stays where it was while the source stands
 * a jump away from it. A price whose last change was a jump keeps that
 * earlier price as its level; every other takes the price it has now.
 */
export const migration: Migration = {
  version: 22,
  name: "a source price's steady level",
  sql: `
      ALTER TABLE source_prices RENAME COLUMN prev_buy TO steady_buy;
      ALTER TABLE source_prices RENAME COLUMN prev_sell TO steady_sell;
      UPDATE source_prices SET
        steady_buy = CASE WHEN steady_buy > 0 AND buy > 0 AND (buy >= steady_buy * 5 OR buy * 5 <= steady_buy) THEN steady_buy ELSE buy END,
        steady_sell = CASE WHEN steady_sell > 0 AND sell > 0 AND (sell >= steady_sell * 5 OR sell * 5 <= steady_sell) THEN steady_sell ELSE sell END;
  `,
};

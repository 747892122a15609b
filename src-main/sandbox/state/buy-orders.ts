import type { CreateBuyOrderItem, DeleteBuyOrderItem, EditBuyOrderItem } from '../../core/api/schemas.ts';
import { streamFor } from '../catalog/prng.ts';
import { filterProfanity } from './profanity.ts';
import { refuseItem } from './refusal.ts';
import type { Balance } from './accounts.ts';

/**
 * Buy orders, one per SKU and account. No funds are reserved; the balance is
 * checked when an order is created (quantity cut to what it covers) and edited
 * (refused when it cannot cover the remaining quantity), and taken when a
 * seller fills a unit.
 */

export interface SandboxBuyOrder {
  readonly sku: string;
  price: number;
  /** Units wanted in total, filled ones included. */
  quantity: number;
  filled: number;
  active: 0 | 1;
  user_note: string | null;
  readonly account: string;
  readonly createdAt: number;
  updatedAt: number;
  /** Creation order; names the order's own seeded stream of fill times. */
  readonly serial: number;
}

export interface BuyOrderCreateOutcome {
  readonly created: number;
  /** Items whose quantity was reduced to floor(balance / price). */
  readonly cut: number;
  /** Items skipped because the balance covers not even one unit. */
  readonly skippedNoFunds: number;
  /** Items naming a SKU that already has an open order on that account. */
  readonly duplicates: number;
}

const FILL_STREAM = 2;
/** Mean time between fills of one active order, in sandbox ms. */
const MEAN_FILL_INTERVAL_MS = 20 * 60_000;

interface FillClock {
  nextAt: number;
  index: number;
}

export class BuyOrders {
  private readonly open = new Map<string, SandboxBuyOrder>();
  private readonly fills = new Map<SandboxBuyOrder, FillClock>();
  private readonly seed: number;
  private readonly autoFill: boolean;
  private serial = 0;
  private earliestFill = Infinity;

  /** @param autoFill whether sellers fill active orders over time (the seeded schedule). */
  constructor(seed: number, autoFill: boolean) {
    this.seed = seed;
    this.autoFill = autoFill;
  }

  all(): SandboxBuyOrder[] {
    return [...this.open.values()];
  }

  /** `refuseDuplicates`: a SKU that already has an open order refuses the batch instead of being skipped. */
  create(account: string, items: readonly CreateBuyOrderItem[], balance: Balance, now: number, refuseDuplicates = false): BuyOrderCreateOutcome {
    if (refuseDuplicates) {
      items.forEach((item, index) => {
        if (this.open.has(key(account, item.sku))) refuseItem(index, 'sku', `a buy order for ${item.sku} already exists`);
      });
    }
    let created = 0;
    let cut = 0;
    let skippedNoFunds = 0;
    let duplicates = 0;
    for (const item of items) {
      if (this.open.has(key(account, item.sku))) {
        duplicates++;
        continue;
      }
      const affordable = Math.floor(balance.balance / item.price);
      const quantity = Math.min(item.quantity, affordable);
      if (quantity === 0) {
        skippedNoFunds++;
        continue;
      }
      if (quantity < item.quantity) cut++;
      const order: SandboxBuyOrder = {
        sku: item.sku,
        price: item.price,
        quantity,
        filled: 0,
        active: 1,
        user_note: item.user_note ? filterProfanity(item.user_note) : null,
        account,
        createdAt: now,
        updatedAt: now,
        serial: this.serial++,
      };
      this.open.set(key(account, item.sku), order);
      this.scheduleFill(order, now, 0);
      created++;
    }
    return { created, cut, skippedNoFunds, duplicates };
  }

  /** Refuses the whole batch when an order is missing or the balance cannot cover what remains. */
  edit(accounts: readonly string[], items: readonly EditBuyOrderItem[], balance: Balance, now: number): number {
    const targets = items.map((item, index) => {
      const order = this.find(accounts, item.sku);
      if (!order) return refuseItem(index, 'sku', `no buy order for ${item.sku}`);
      if (item.quantity < order.filled) {
        return refuseItem(index, 'quantity', `${item.quantity} for ${item.sku} is below the ${order.filled} units already filled`);
      }
      const remaining = item.quantity - order.filled;
      if (remaining * item.price > balance.balance) {
        return refuseItem(index, 'quantity', `insufficient balance for ${item.sku}: ${remaining} remaining at ${item.price} needs ${remaining * item.price}, balance is ${balance.balance}`);
      }
      return order;
    });
    items.forEach((item, index) => {
      const order = targets[index];
      if (!order) return;
      order.price = item.price;
      order.quantity = item.quantity;
      order.active = item.active;
      if (item.user_note !== undefined) order.user_note = item.user_note === '' ? null : filterProfanity(item.user_note);
      order.updatedAt = now;
      if (order.filled >= order.quantity) this.close(order);
    });
    return items.length;
  }

  /** Removes the unfilled part of each named order; refuses the batch if one is unknown. */
  delete(accounts: readonly string[], items: readonly DeleteBuyOrderItem[]): number {
    items.forEach((item, index) => {
      if (!this.find(accounts, item.sku)) refuseItem(index, 'sku', `no buy order for ${item.sku}`);
    });
    let deleted = 0;
    for (const item of items) {
      const order = this.find(accounts, item.sku);
      if (!order) continue; // named twice in one batch
      this.close(order);
      deleted++;
    }
    return deleted;
  }

  deleteAll(accounts: readonly string[]): number {
    let deleted = 0;
    for (const order of [...this.open.values()]) {
      if (!accounts.includes(order.account)) continue;
      this.close(order);
      deleted++;
    }
    return deleted;
  }

  /** Fills `units` of an order now, paying from the balance (admin and tests). */
  fill(order: SandboxBuyOrder, units: number, balance: Balance): number {
    let done = 0;
    while (done < units && order.filled < order.quantity && balance.balance >= order.price) {
      balance.balance -= order.price;
      order.filled++;
      done++;
    }
    if (order.filled >= order.quantity) this.close(order);
    return done;
  }

  /**
   * Applies the seeded fills due up to `now`. Called before every request, so
   * an order's `active` flag has been constant since the last call: fills due
   * while it was paused are skipped.
   */
  advance(now: number, balance: Balance): number {
    if (now < this.earliestFill) return 0;
    let filled = 0;
    let earliest = Infinity;
    for (const order of [...this.fills.keys()]) {
      let clock = this.fills.get(order);
      while (clock && clock.nextAt <= now) {
        if (order.active === 1) filled += this.fill(order, 1, balance);
        this.scheduleFill(order, clock.nextAt, clock.index + 1);
        clock = this.fills.get(order);
      }
      if (clock) earliest = Math.min(earliest, clock.nextAt);
    }
    this.earliestFill = earliest;
    return filled;
  }

  /** Main account's order first, then the linked accounts' in order. */
  find(accounts: readonly string[], sku: string): SandboxBuyOrder | undefined {
    for (const account of accounts) {
      const order = this.open.get(key(account, sku));
      if (order) return order;
    }
    return undefined;
  }

  private scheduleFill(order: SandboxBuyOrder, after: number, index: number): void {
    if (!this.autoFill || this.open.get(key(order.account, order.sku)) !== order) return;
    const random = streamFor(this.seed, FILL_STREAM, order.serial, index);
    // Exponential gaps: fills arrive as a Poisson process per order.
    const gap = Math.max(1_000, Math.round(-Math.log(1 - random()) * MEAN_FILL_INTERVAL_MS));
    const clock = { nextAt: after + gap, index };
    this.fills.set(order, clock);
    this.earliestFill = Math.min(this.earliestFill, clock.nextAt);
  }

  private close(order: SandboxBuyOrder): void {
    if (this.open.get(key(order.account, order.sku)) === order) this.open.delete(key(order.account, order.sku));
    this.fills.delete(order);
  }
}

function key(account: string, sku: string): string {
  return `${account}|${sku}`;
}

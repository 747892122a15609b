import { USER_AGENT_TTL_SECONDS } from '../../core/api/endpoints.ts';
import type { Random } from '../catalog/prng.ts';
import { hexString, intBetween } from '../catalog/prng.ts';
import { Refusal } from './refusal.ts';

/**
 * Who the sandbox's API keys act for: one main account with linked accounts,
 * the one balance, the trade URLs and the automation ("user agent") deadlines.
 */

/** How a request's `X-API-Key` was judged; the key itself is never kept in logs. */
export type KeyKind = 'valid' | 'revoked' | 'forbidden' | 'missing' | 'unknown';

/** What the main key currently does, so tests can revoke or suspend it mid-run. */
export type KeyStatus = 'valid' | 'revoked' | 'forbidden';

export interface LinkedAccountProfile {
  readonly id64: string;
  readonly name: string;
  readonly image_url: string;
}

export interface UserAgentState {
  /** Epoch ms (sandbox clock) until which the account counts as automated, or null if never set. */
  readonly refreshAt: number | null;
  readonly automated: boolean;
}

export interface Balance {
  balance: number;
  pending_balance: number;
}

const STEAM_ID64_BASE = 76561197960265728n;
const LINKED_NAMES = ['storage-bot', 'keys-bot', 'hats-bot'];

/** Builds a 64-bit account ID the way the platform does: base + a 32-bit account number. */
function accountId64(random: Random): string {
  return String(STEAM_ID64_BASE + BigInt(intBetween(random, 40_000_000, 1_400_000_000)));
}

export class Accounts {
  readonly main: string;
  readonly linked: readonly string[];
  readonly profiles: ReadonlyMap<string, LinkedAccountProfile>;
  readonly apiKey: string;
  readonly revokedKey: string;
  readonly forbiddenKey: string;
  readonly balance: Balance;
  /** Main key status; 'valid' unless a test changed it. */
  keyStatus: KeyStatus = 'valid';
  private readonly tradeUrls = new Map<string, string | null>();
  private readonly userAgents = new Map<string, number>();

  constructor(random: Random, linkedCount = 3) {
    this.main = accountId64(random);
    const linked: string[] = [];
    const profiles = new Map<string, LinkedAccountProfile>();
    for (let i = 0; i < linkedCount; i++) {
      const id64 = accountId64(random);
      linked.push(id64);
      profiles.set(id64, {
        id64,
        name: LINKED_NAMES[i % LINKED_NAMES.length] ?? `linked-${i}`,
        image_url: `https://avatars.sandbox.invalid/${hexString(random, 40)}_full.jpg`,
      });
    }
    this.linked = linked;
    this.profiles = profiles;
    this.apiKey = hexString(random, 32);
    this.revokedKey = hexString(random, 32);
    this.forbiddenKey = hexString(random, 32);
    this.balance = { balance: intBetween(random, 50_000, 150_000), pending_balance: intBetween(random, 0, 5_000) };
    for (const id of this.all()) this.tradeUrls.set(id, null);
  }

  /** Every account the valid key may act for: main first. */
  all(): string[] {
    return [this.main, ...this.linked];
  }

  isLinked(id: string): boolean {
    return this.linked.includes(id);
  }

  /** Judges a presented key without ever storing it. */
  classify(key: string | undefined): KeyKind {
    if (key === undefined || key === '') return 'missing';
    if (key === this.apiKey) return this.keyStatus;
    if (key === this.revokedKey) return 'revoked';
    if (key === this.forbiddenKey) return 'forbidden';
    return 'unknown';
  }

  /**
   * The account a request addresses: the main one, or the linked one named by
   * `multiaccount_proxy` (refused when it is not linked to this key).
   */
  resolveProxy(proxy: string | undefined, field = 'multiaccount_proxy'): string {
    if (proxy === undefined) return this.main;
    if (!this.isLinked(proxy)) throw new Refusal(field, `${proxy} is not a linked account of this key`);
    return proxy;
  }

  setTradeUrl(account: string, url: string): void {
    this.tradeUrls.set(account, url);
  }

  tradeUrl(account: string): string | null {
    return this.tradeUrls.get(account) ?? null;
  }

  /** Marks the main account and the named linked ones automated; returns refresh_at in Unix seconds. */
  setUserAgent(nowMs: number, multiaccounts: readonly string[]): number {
    multiaccounts.forEach((id, index) => {
      if (!this.isLinked(id)) throw new Refusal(`multiaccounts.${index}`, `${id} is not a linked account of this key`);
    });
    const refreshAt = Math.floor(nowMs / 1000) + USER_AGENT_TTL_SECONDS;
    for (const id of [this.main, ...multiaccounts]) this.userAgents.set(id, refreshAt * 1000);
    return refreshAt;
  }

  userAgent(account: string, nowMs: number): UserAgentState {
    const refreshAt = this.userAgents.get(account) ?? null;
    return { refreshAt, automated: refreshAt !== null && nowMs < refreshAt };
  }
}

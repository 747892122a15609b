import { PRICEDB_URL, sourceConfig, type SourceConfig, type SourceView } from '../../../src-shared/pricing.ts';
import { ApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import { conflict, notFound, quoted } from '../errors.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { NameToSku } from '../costs/amount-table.ts';
import { createPriceRepo, type PriceRepo, type SourcePriceRow } from '../store/price-repo.ts';
import type { Store } from '../store/db.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { createSourceHttp, type SourceHttp } from './source-http.ts';
import { readList, readPricedb, type SourceReadResult } from './source-read.ts';
import { nextReadIn, sourceState, type ReadPlan } from './read-plan.ts';

/**
 * The price sources of a workspace, read on their own schedule: each at its
 * interval (or later when it asks, by its max-age or a 429's Retry-After,
 * capped), one at a time, backing off after a failure. Prices are kept in
 * the store with when the source priced them and when they were read; a
 * source that is down keeps its last prices, shown stale with their age.
 * Every wait is on the clock's monotonic time.
 */

export interface PriceSources {
  readonly repo: PriceRepo;
  list(): SourceView[];
  add(config: SourceConfig): SourceView;
  change(id: string, config: SourceConfig): SourceView;
  remove(id: string): void;
  /** Reads a source now (all of them when none is named), unless it asked for a wait that has not passed; resolves once read. */
  readNow(id?: string): Promise<void>;
  prices(id: string, skus: readonly string[]): Map<string, SourcePriceRow>;
  start(): void;
  stop(): Promise<void>;
  on(event: 'changed', listener: () => void): Unsubscribe;
}

export interface PriceSourcesDeps {
  store: Store;
  clock: Clock;
  /** The SKUs the desk wants prices of (the ledger's, the rules'): what pricedb.io is asked about. */
  wanted(): readonly string[];
  /** Names to SKUs, for a list that names its items. */
  skuForName?: NameToSku | null;
  /** The pricedb.io address a new profile starts with (the simulator's in sandbox mode). */
  pricedbUrl?: string;
  turn?: Turn;
}

/** The source every new profile has: pricedb.io, a key at $1.80 until the trader says otherwise. */
export function defaultPricedb(url: string): SourceConfig {
  return { kind: 'pricedb', name: 'pricedb.io', url, refreshMinutes: 30, enabled: true, keyCents: 180, refinedPerKey: null };
}

export function createPriceSources(deps: PriceSourcesDeps): PriceSources {
  const { store, clock } = deps;
  const repo = createPriceRepo(store);
  const turn = deps.turn ?? nextTurn;
  const emitter = createEmitter<{ changed: undefined }>();
  const changed = () => emitter.emit('changed', undefined);
  const plans = new Map<string, ReadPlan>();
  const https = new Map<string, { url: string; http: SourceHttp }>();
  let running = false;
  let wake = new AbortController();
  let loop: Promise<void> | null = null;
  const reading = new Map<string, Promise<void>>();

  if (repo.sources().length === 0) repo.putSource('pricedb', defaultPricedb(deps.pricedbUrl ?? PRICEDB_URL), clock.now());

  const planOf = (id: string): ReadPlan => {
    let plan = plans.get(id);
    if (!plan) {
      const row = repo.source(id);
      // The first plan after a start comes from the stored time of the last read; every wait after is monotonic.
      const since = row?.read_at === null || row === null ? Infinity : Math.max(0, clock.now() - row.read_at);
      const interval = (row?.config.refreshMinutes ?? 30) * 60_000;
      plan = { dueAt: clock.monotonic() + Math.max(0, interval - since), failures: 0, askedUntil: null };
      plans.set(id, plan);
    }
    return plan;
  };

  function httpOf(id: string, name: string, url: string): SourceHttp {
    const known = https.get(id);
    if (known?.url === url) return known.http;
    void known?.http.close();
    const http = createSourceHttp({ source: name, url, now: () => clock.now() });
    https.set(id, { url, http });
    return http;
  }

  async function readSource(id: string): Promise<void> {
    const row = repo.source(id);
    if (!row) return;
    const { config } = row;
    const plan = planOf(id);
    try {
      let result: SourceReadResult;
      if (config.kind === 'pricedb') {
        result = await readPricedb({ http: httpOf(id, config.name, config.url), clock, turn, config, skus: deps.wanted() });
      } else {
        const http = config.url === null ? null : httpOf(id, config.name, config.url);
        result = await readList({ http, config, now: clock.now(), skuForName: deps.skuForName ?? null });
      }
      await turn();
      repo.replacePrices(id, result.prices, clock.now());
      if (result.refused.length > 0) {
        const first = result.refused[0];
        repo.setProblem(id, `${config.name}: ${result.refused.length} ${result.refused.length === 1 ? 'line' : 'lines'} refused, the first: line ${first?.line}: ${first?.reason}`, clock.now());
      }
      Object.assign(plan, nextReadIn(plan, config.refreshMinutes * 60_000, { ok: true, maxAgeMs: result.maxAgeMs }, clock.monotonic()));
    } catch (error) {
      const message = error instanceof ApiError ? error.message : `${config.name}: ${error instanceof Error ? error.message : String(error)}`;
      repo.setProblem(id, message, clock.now());
      const retryAfterMs = error instanceof ApiError && error.kind === 'rate_limited' ? (error.retryAfterMs ?? null) : null;
      Object.assign(plan, nextReadIn(plan, config.refreshMinutes * 60_000, { ok: false, rateLimited: error instanceof ApiError && error.kind === 'rate_limited', retryAfterMs }, clock.monotonic()));
    }
    changed();
  }

  /** Reads `id` once, whoever asks: a second ask while it reads waits for the same read. */
  function readOnce(id: string): Promise<void> {
    let run = reading.get(id);
    if (!run) {
      run = readSource(id).finally(() => reading.delete(id));
      reading.set(id, run);
    }
    return run;
  }

  /** The sources the desk reads: one turned off is asked nothing, on its schedule or by Read now. */
  const enabledIds = () => repo.sources().filter((s) => s.config.enabled).map((s) => s.source_id);

  async function runLoop(): Promise<void> {
    while (running) {
      const now = clock.monotonic();
      const ids = enabledIds();
      const due = ids.map((id) => ({ id, at: planOf(id).dueAt })).sort((a, b) => a.at - b.at)[0];
      if (due !== undefined && due.at <= now) {
        await readOnce(due.id);
        continue;
      }
      const signal = wake.signal;
      await clock.sleep(due === undefined ? 3_600_000 : Math.min(due.at - now, 3_600_000), signal).catch(() => undefined);
      if (signal.aborted) wake = new AbortController();
    }
  }
  const poke = () => wake.abort();

  function view(id: string): SourceView {
    const row = repo.source(id);
    if (!row) throw notFound(`There is no price source ${quoted(id)}`);
    const stats = repo.stats(id);
    const plan = planOf(id);
    return {
      id, config: row.config,
      state: sourceState(row, clock.now()),
      readAt: row.read_at, prices: stats.prices, problem: row.problem, problemAt: row.problem_at,
      nextReadAt: running && row.config.enabled ? Math.round(clock.now() + Math.max(0, plan.dueAt - clock.monotonic())) : null,
      oldestPricedAt: stats.oldestPricedAt,
    };
  }

  const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 30) || 'list';

  return {
    repo,
    list: () => repo.sources().map((s) => view(s.source_id)),
    add(config) {
      const checked = sourceConfig.parse(config);
      let id = slug(checked.name);
      for (let n = 2; repo.source(id) !== null; n++) id = `${slug(checked.name)}-${n}`;
      repo.putSource(id, checked, clock.now());
      plans.set(id, { dueAt: clock.monotonic(), failures: 0, askedUntil: null });
      poke();
      changed();
      return view(id);
    },
    change(id, config) {
      const row = repo.source(id);
      if (!row) throw notFound(`There is no price source ${quoted(id)}`);
      const checked = sourceConfig.parse(config);
      if (checked.kind !== row.kind) throw conflict('A source keeps its kind: add a new source instead');
      repo.putSource(id, checked, clock.now());
      // A new address or interval is read at once, unless the source asked for a wait.
      const plan = planOf(id);
      plan.dueAt = Math.max(clock.monotonic(), plan.askedUntil ?? 0);
      poke();
      changed();
      return view(id);
    },
    remove(id) {
      if (!repo.source(id)) throw notFound(`There is no price source ${quoted(id)}`);
      repo.removeSource(id);
      plans.delete(id);
      void https.get(id)?.http.close();
      https.delete(id);
      changed();
    },
    async readNow(id) {
      const ids = id === undefined ? enabledIds() : [id];
      for (const one of ids) {
        const row = repo.source(one);
        if (!row) throw notFound(`There is no price source ${quoted(one)}`);
        if (!row.config.enabled) throw conflict(`${row.config.name} is turned off: turn it on to read it`);
        const plan = planOf(one);
        // A wait the source asked for (a 429) is kept, whoever asks.
        const wait = (plan.askedUntil ?? 0) - clock.monotonic();
        if (wait > 0) await clock.sleep(wait);
        // A read under way was asked before this: it may lack what the ledger holds now, so this one follows it.
        await reading.get(one);
        await readOnce(one);
      }
    },
    prices: (id, skus) => repo.prices(id, skus),
    start() {
      if (running) return;
      running = true;
      loop = runLoop();
    },
    async stop() {
      running = false;
      poke();
      await loop;
      await Promise.allSettled([...reading.values()]);
      await Promise.all([...https.values()].map((h) => h.http.close()));
      https.clear();
    },
    on: (event, listener) => emitter.on(event, () => listener()),
  };
}

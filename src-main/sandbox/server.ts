import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointName } from '../core/api/endpoints.ts';
import type { Clock } from '../core/clock.ts';
import type { Faults } from './faults.ts';
import { handle } from './handlers.ts';
import { echoingKey, echoingKeyEncoded, keyEchoHeader, withKeyInError, withKeyInTrades } from './key-echo.ts';
import type { RateLimiter, RateStatus } from './rate-limiter.ts';
import { Refusal } from './state/refusal.ts';
import { malform, refusal, refusalReply, send, sendHalfThenReset, tooMany, type Reply, type SendOptions } from './reply.ts';
import type { AppliedFault, RequestLog } from './request-log.ts';
import { countItems, matchRoute, rawInput, readBody, validate } from './request-input.ts';
import type { KeyKind } from './state/accounts.ts';
import { isInventoryPath, serveInventory } from './steam-inventory.ts';
import { isPricedbPath, servePricedb } from './prices/pricedb-server.ts';
import type { PricedbState } from './prices/pricedb-sim.ts';
import { applyTradeListFaults } from './trade-faults.ts';
import type { World } from './state/world.ts';

/**
 * The HTTP face of the sandbox: one request goes route → fault knobs → key →
 * rate limit → validation → handler → response, and is recorded. Order
 * matters: a 401, 403, 429 or injected 5xx changes nothing and spends no
 * budget; a 400 spends budget (the service did read it) but changes nothing;
 * a 404 or 405 spends only the global budget.
 */

export interface ServerDeps {
  readonly world: World;
  readonly clock: Clock;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly log: RequestLog;
  /** Aborted on close, so a delayed request does not outlive the sandbox. */
  readonly closing: AbortSignal;
  /** The price source served beside the service (pricedb.io's API). */
  readonly pricedb: PricedbState;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export function createRequestListener(deps: ServerDeps): RequestListener {
  return (req, res) => {
    serve(deps, req, res).catch((error: unknown) => {
      // A bug in the sandbox itself: answer so the client does not hang.
      if (!res.headersSent && !res.destroyed) {
        send(res, { status: 500, body: { success: false, error: `sandbox: ${String(error)}` } }, null, sendOptions(deps));
      }
    });
  };
}

async function serve(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { world, clock, limiter, faults, log } = deps;
  const at = clock.now();
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  // Steam's community inventory, served beside the service: no key, none of the service's limits.
  if (isInventoryPath(url.pathname)) {
    await serveInventory({ world, clock, faults, counters: log.counters, record: (r) => log.recordInventory(r), pending: (d) => void (log.inventoryPending += d), closing: deps.closing }, req, res, url);
    return;
  }
  // pricedb.io's API, served beside the service: no key, its own limit.
  if (isPricedbPath(url.pathname)) {
    await servePricedb(deps.pricedb, req, res, url);
    return;
  }
  const route = matchRoute(method, url.pathname);
  const endpoint = route.kind === 'endpoint' ? route.endpoint : null;
  const header = req.headers['x-api-key'];
  const keyKind: KeyKind = world.accounts.classify(Array.isArray(header) ? header[0] : header);
  const limiterKey = keyKind;
  const applied: AppliedFault[] = [];
  let body = '';
  let itemCount = 0;
  let dropped = false;
  let resetAfterMs: number | null = null;
  let rate: RateStatus | null = null;
  let reply: Reply;

  try {
    body = await readBody(req);
    if (route.kind !== 'endpoint') {
      // The global budget counts every request a valid key makes, known path or not.
      const decision = keyKind === 'valid' ? limiter.take(limiterKey, null, at) : null;
      rate = decision?.status ?? null;
      if (decision && !decision.allowed) {
        reply = tooMany(decision.retryAfterSec ?? 1, 'rate limit exceeded: global');
      } else if (route.kind === 'unknown') {
        reply = refusal(404, 'path', `no endpoint ${method} ${url.pathname}`);
      } else {
        reply = refusal(405, 'method', `${method} is not allowed here`);
        reply.headers = { Allow: route.allowed.join(', ') };
      }
    } else {
      const name = route.endpoint;
      itemCount = countItemsSafely(name, body, url.searchParams);
      const delay = faults.delay(name, at);
      if (delay !== null) {
        applied.push('delay');
        await clock.sleep(delay, deps.closing);
      }
      const now = clock.now();
      if (faults.silent(name, now)) {
        // Accepted and never answered: the client must give up on its own.
        log.record({ at, endpoint, method, path: url.pathname, status: 0, itemCount, keyKind, faults: [...applied, 'silent'], dropped: false });
        await untilGone(req, deps.closing);
        req.socket.destroy();
        return;
      }
      const storm = faults.storm(name, now);
      const serverError = storm === null ? faults.serverError(name, now) : null;
      if (storm !== null) {
        applied.push('storm429');
        reply = tooMany(storm, 'rate limit exceeded (storm)');
      } else if (serverError !== null) {
        applied.push('serverError');
        reply = { status: serverError, body: { success: false, error: 'the service is temporarily unavailable' } };
      } else if (keyKind !== 'valid') {
        reply = keyKind === 'forbidden'
          ? refusal(403, 'X-API-Key', 'the account is not in good standing for marketplace activity')
          : refusal(401, 'X-API-Key', keyKind === 'missing' ? 'is missing' : 'is invalid or revoked');
      } else {
        const decision = limiter.take(limiterKey, name, now);
        rate = decision.status;
        if (!decision.allowed) {
          reply = tooMany(decision.retryAfterSec ?? 1, `rate limit exceeded: ${decision.status.scope}`);
        } else {
          reply = process(deps, name, body, url.searchParams, now);
          if (reply.status === 200 && moveBalance(deps, name, now)) applied.push('balanceMove');
          const late = faults.lateAnswer(name, now);
          if (late !== null) {
            applied.push('lateAnswer');
            await clock.sleep(late, deps.closing);
          }
          const hostileName = reply.status === 200 ? faults.hostileItemName(name, now) : null;
          if (hostileName !== null) {
            applied.push('hostileItemName');
            reply = { ...reply, body: renamedItems(reply.body, hostileName) };
          }
          const tradeEcho = reply.status === 200 ? faults.keyEchoInTrades(name, now) : null;
          if (tradeEcho !== null && typeof header === 'string') {
            applied.push('echoKeyInTrades');
            reply = { ...reply, body: withKeyInTrades(reply.body, header, tradeEcho.spelling, tradeEcho.fields) };
          }
          if (reply.status === 200) {
            const listed = applyTradeListFaults(faults, deps.world, name, now, reply.body);
            applied.push(...listed.applied);
            reply = { ...reply, body: listed.body };
          }
          if (reply.status === 200) {
            const afterProcess = afterProcessFault(faults, name, now);
            if (typeof afterProcess === 'object' && afterProcess !== null) {
              applied.push('resetMidBody');
              resetAfterMs = afterProcess.resetAfterMs;
            } else if (afterProcess === 'drop') {
              applied.push('drop');
              dropped = true;
            } else if (typeof afterProcess === 'number') {
              // Processed, then reported as failed: the "502 after commit" a proxy in front of the service can give.
              applied.push('serverErrorAfterProcess');
              reply = { status: afterProcess, body: { success: false, error: 'bad gateway' } };
            } else if (afterProcess !== null) {
              applied.push('malformed');
              reply = malform(reply, afterProcess);
            }
          }
        }
      }
    }
  } catch (error) {
    if (deps.closing.aborted) {
      req.socket.destroy();
      return;
    }
    if (!(error instanceof Refusal)) throw error;
    reply = refusalReply(error, faults.refusalStyle());
  }

  const sentKey = Array.isArray(header) ? header[0] : header;
  if (endpoint !== null && reply.status >= 400 && sentKey && faults.echoKey(endpoint, clock.now())) {
    applied.push('echoKey');
    reply = echoingKey(reply, sentKey);
  }
  if (endpoint !== null && reply.status >= 400 && sentKey && faults.echoKeyEncoded(endpoint, clock.now())) {
    applied.push('echoKeyEncoded');
    reply = echoingKeyEncoded(reply, sentKey);
  }
  const errorEcho = endpoint !== null && reply.status >= 400 && sentKey ? faults.keyEcho('echoKeyInError', endpoint, clock.now()) : null;
  if (errorEcho !== null && sentKey) {
    applied.push('echoKeyInError');
    reply = withKeyInError(reply, sentKey, errorEcho);
  }
  const headerEcho = endpoint !== null && sentKey ? faults.keyEcho('echoKeyInHeader', endpoint, clock.now()) : null;
  if (headerEcho !== null && sentKey) {
    applied.push('echoKeyInHeader');
    reply = { ...reply, headers: { ...reply.headers, ...keyEchoHeader(sentKey, headerEcho) } };
  }
  rate ??= limiter.peek(limiterKey, endpoint, clock.now());
  // Some services describe only the global limit, whichever one refused.
  if (faults.globalRateHeaders()) rate = { ...limiter.peek(limiterKey, null, clock.now()), scope: 'global' };
  log.record({ at, endpoint, method, path: url.pathname, status: reply.status, itemCount, keyKind, faults: applied, dropped });
  if (dropped) {
    // The state changed; the client gets no answer: the unknown-outcome case.
    req.socket.destroy();
    return;
  }
  if (resetAfterMs !== null) {
    await sendHalfThenReset(res, reply, rate, sendOptions(deps), () => clock.sleep(resetAfterMs ?? 0, deps.closing));
    return;
  }
  send(res, reply, rate, sendOptions(deps));
}

function sendOptions(deps: ServerDeps): SendOptions {
  const offsetMs = deps.faults.clockOffsetMs();
  return { serviceNow: deps.clock.now() + offsetMs, offsetMs, withScope: !deps.faults.globalRateHeaders() };
}

/** What happens to a processed request's answer: dropped, cut mid-body, a 5xx, a broken body, or nothing. One knob at most. */
function afterProcessFault(
  faults: Faults, endpoint: EndpointName, now: number,
): 'drop' | { resetAfterMs: number } | number | 'invalid_json' | 'missing_field' | null {
  if (faults.drop(endpoint, now)) return 'drop';
  const resetAfterMs = faults.resetMidBody(endpoint, now);
  if (resetAfterMs !== null) return { resetAfterMs };
  return faults.serverErrorAfterProcess(endpoint, now) ?? faults.malformed(endpoint, now);
}

/** Pending trades whose every item carries `name`. */
function renamedItems(body: unknown, name: string): unknown {
  if (!Array.isArray(body)) return body;
  return body.map((trade: { items?: unknown[] }) => ({ ...trade, items: (trade.items ?? []).map((item) => ({ ...(item as object), name })) }));
}

/** The balance moves after the request was processed (a fill or a sale meanwhile), when the knob says so. */
function moveBalance(deps: ServerDeps, endpoint: EndpointName, now: number): boolean {
  const delta = deps.faults.balanceMove(endpoint, now);
  if (delta === null) return false;
  const balance = deps.world.accounts.balance;
  balance.balance = Math.max(0, balance.balance + delta);
  return true;
}

/** Resolves when the client closes the connection or the sandbox closes. */
function untilGone(req: IncomingMessage, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (closing.aborted || req.socket.destroyed) return resolve();
    req.socket.once('close', () => resolve());
    closing.addEventListener('abort', () => resolve(), { once: true });
  });
}

function process(deps: ServerDeps, endpoint: EndpointName, body: string, query: URLSearchParams, now: number): Reply {
  const { faults } = deps;
  deps.world.advance(now, deps.log.counters, faults.listingSales());
  try {
    const input = validate(endpoint, rawInput(endpoint, body, query));
    const rules = { refuseDuplicateCreates: faults.refuseDuplicateCreates(), endedListingsUnknown: faults.endedListingsUnknown(), clockOffsetMs: faults.clockOffsetMs() };
    const result = handle(endpoint, { world: deps.world, now, counters: deps.log.counters, rules }, input);
    return { status: 200, body: result };
  } catch (error) {
    if (error instanceof Refusal) return refusalReply(error, faults.refusalStyle());
    throw error;
  }
}

function countItemsSafely(endpoint: EndpointName, body: string, query: URLSearchParams): number {
  try {
    return countItems(rawInput(endpoint, body, query));
  } catch {
    return 0;
  }
}


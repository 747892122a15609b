import type { EndpointName } from '../core/api/endpoints.ts';
import type { Random } from './prng.ts';

/**
 * Knobs that make the sandbox misbehave the ways a real service and network do,
 * so the client's and scheduler's handling of each can be tested. Every knob can
 * be limited to some endpoints, to the next `count` matching requests, and/or to
 * a `probability` per request (rolled on the sandbox's seeded RNG).
 */

export interface FaultScope {
  /** Only these endpoints; all endpoints when absent. */
  readonly endpoints?: readonly EndpointName[];
  /** Fire for this many matching requests, then stop. Unlimited when absent. */
  readonly count?: number;
  /** Chance per matching request, 0..1. Always when absent. */
  readonly probability?: number;
}

export interface DelayFault extends FaultScope {
  /** Sandbox-clock ms to wait before handling the request. */
  readonly ms: number;
}

export interface ServerErrorFault extends FaultScope {
  /** Default 500. */
  readonly status?: number;
}

export interface MalformedFault extends FaultScope {
  /** `invalid_json` (default): a 200 whose body is not JSON; `missing_field`: valid JSON lacking a required field. */
  readonly kind?: 'invalid_json' | 'missing_field';
}

export interface Storm429Fault extends FaultScope {
  /** `retry_after` of each 429, seconds. */
  readonly retryAfterSec: number;
  /** Sandbox-clock epoch ms until which every matching request gets a 429. */
  readonly untilMs: number;
}

/**
 * One field per fault. Shorthands: a number for `delayMs` (ms, everywhere),
 * `true` for "always, everywhere", a number for `serverError` (its status).
 * `false`/`undefined` in `set` turns that fault off.
 */
export interface FaultConfig {
  /** Wait before handling: the slow-service case. */
  delayMs: number | DelayFault;
  /** Handle the request (state changes) then destroy the socket with no response. */
  dropAfterProcess: boolean | FaultScope;
  /** A 5xx with nothing processed. */
  serverError: boolean | number | ServerErrorFault;
  /** Handle the request, then answer 200 with a broken body. */
  malformed: boolean | MalformedFault;
  /** 429 to every matching request until `untilMs`; nothing processed, nothing counted. */
  storm429: Storm429Fault;
  /**
   * Error replies quote the API key the request carried, as careless
   * gateways do: raw, inside a JSON error quoted as a string (escaped twice),
   * and URL-encoded. What the client keeps of them must not hold it.
   */
  echoKey: boolean | FaultScope;
}

export type FaultName = keyof FaultConfig;

export interface SandboxFaults {
  set(faults: { readonly [K in FaultName]?: FaultConfig[K] | false | undefined }): void;
  clear(): void;
}

interface Armed {
  scope: FaultScope;
  remaining: number;
  params: Record<string, unknown>;
}

export class Faults implements SandboxFaults {
  private readonly armed = new Map<FaultName, Armed>();
  private readonly random: Random;

  constructor(random: Random) {
    this.random = random;
  }

  set(faults: { readonly [K in FaultName]?: FaultConfig[K] | false | undefined }): void {
    for (const name of Object.keys(faults) as FaultName[]) {
      const value = faults[name];
      if (value === undefined || value === false) {
        this.armed.delete(name);
        continue;
      }
      this.armed.set(name, normalize(name, value));
    }
  }

  clear(): void {
    this.armed.clear();
  }

  delay(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('delayMs', endpoint, now);
    return hit ? Number(hit.ms) : null;
  }

  drop(endpoint: EndpointName, now: number): boolean {
    return this.roll('dropAfterProcess', endpoint, now) !== null;
  }

  serverError(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('serverError', endpoint, now);
    return hit ? Number(hit.status ?? 500) : null;
  }

  malformed(endpoint: EndpointName, now: number): 'invalid_json' | 'missing_field' | null {
    const hit = this.roll('malformed', endpoint, now);
    if (!hit) return null;
    return hit.kind === 'missing_field' ? 'missing_field' : 'invalid_json';
  }

  echoKey(endpoint: EndpointName, now: number): boolean {
    return this.roll('echoKey', endpoint, now) !== null;
  }

  storm(endpoint: EndpointName, now: number): number | null {
    const hit = this.roll('storm429', endpoint, now);
    return hit ? Math.max(1, Math.ceil(Number(hit.retryAfterSec))) : null;
  }

  /** Whether the fault fires for this request; spends one of its `count` when it does. */
  private roll(name: FaultName, endpoint: EndpointName, now: number): Record<string, unknown> | null {
    const armed = this.armed.get(name);
    if (!armed) return null;
    const { scope } = armed;
    if (scope.endpoints && !scope.endpoints.includes(endpoint)) return null;
    if (name === 'storm429' && now >= Number(armed.params.untilMs)) {
      this.armed.delete(name);
      return null;
    }
    if (armed.remaining <= 0) return null;
    if (scope.probability !== undefined && this.random() >= scope.probability) return null;
    armed.remaining--;
    if (armed.remaining <= 0) this.armed.delete(name);
    return armed.params;
  }
}

function normalize(name: FaultName, value: FaultConfig[FaultName]): Armed {
  let params: Record<string, unknown>;
  if (value === true) params = {};
  else if (typeof value === 'number') params = name === 'delayMs' ? { ms: value } : { status: value };
  else params = { ...value };
  const scope: FaultScope = {
    ...(params.endpoints === undefined ? {} : { endpoints: params.endpoints as readonly EndpointName[] }),
    ...(params.probability === undefined ? {} : { probability: Number(params.probability) }),
  };
  const count = params.count === undefined ? Infinity : Number(params.count);
  return { scope, remaining: count, params };
}

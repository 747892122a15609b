import type { EndpointName } from '../api/endpoints.ts';
import type { Clock } from '../clock.ts';
import type { RateBudget, Slot } from './rate-budget.ts';
import { LANES, type Lane } from './types.ts';

/**
 * Hands out turns to send. Everyone who wants to send waits here for a slot
 * of the budget; whenever a slot may have freed (a response, a pause ending, a
 * window moving on) the queue is looked at again and waiting turns are granted
 * by lane priority, then in arrival order. One timer, set to the earliest time
 * a waiting turn could go, drives the "window moving on" case. Every time here
 * is an instant of the clock's monotonic time, so a wall clock that steps
 * neither stalls a turn nor frees a slot early.
 */
export interface Dispatcher {
  /** Waits for a turn to send on `endpoint`; resolves with the slot taken for it. */
  turn(endpoint: EndpointName, lane: Lane, signal?: AbortSignal): Promise<Slot>;
  /** Something changed (a slot released, a pause set, unblocked): look again. */
  poke(): void;
  /** While set, every waiting and every new turn is refused with this error. */
  setGate(error: Error | null): void;
  /** Number of turns waiting. */
  readonly waiting: number;
}

interface Ticket {
  endpoint: EndpointName;
  lane: Lane;
  resolve(slot: Slot): void;
  reject(reason: unknown): void;
  detach(): void;
}

export function createDispatcher(deps: {
  clock: Clock;
  budget: RateBudget;
  /** Called after every look at the queue (pauses may have ended), with the monotonic time of that look. */
  afterPump?: (now: number) => void;
}): Dispatcher {
  const { clock, budget } = deps;
  const queues = new Map<Lane, Ticket[]>(LANES.map((lane) => [lane, []]));
  let gate: Error | null = null;
  let pumpQueued = false;
  let wake: { at: number; abort: AbortController } | null = null;

  const remove = (ticket: Ticket) => {
    const queue = queues.get(ticket.lane) ?? [];
    const index = queue.indexOf(ticket);
    if (index >= 0) queue.splice(index, 1);
  };

  const setWake = (at: number, now: number) => {
    if (wake && wake.at <= at && wake.at > now) return;
    wake?.abort.abort();
    const abort = new AbortController();
    const mine = { at, abort };
    wake = mine;
    clock.sleep(at - now, abort.signal).then(
      () => {
        if (wake === mine) wake = null;
        schedulePump();
      },
      () => undefined,
    );
  };

  const pump = () => {
    const now = clock.monotonic();
    let next = Infinity;
    for (const lane of LANES) {
      const queue = queues.get(lane) ?? [];
      for (let i = 0; i < queue.length; ) {
        const ticket = queue[i] as Ticket;
        const openAt = budget.openAt(ticket.endpoint, lane, now);
        if (openAt <= now) {
          queue.splice(i, 1);
          ticket.detach();
          ticket.resolve(budget.acquire(ticket.endpoint, now));
        } else {
          next = Math.min(next, openAt);
          i++;
        }
      }
    }
    if (Number.isFinite(next)) setWake(next, now);
    deps.afterPump?.(now);
  };

  function schedulePump() {
    if (pumpQueued) return;
    pumpQueued = true;
    queueMicrotask(() => {
      pumpQueued = false;
      pump();
    });
  }

  return {
    turn(endpoint, lane, signal) {
      return new Promise<Slot>((resolve, reject) => {
        if (gate) return reject(gate);
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          remove(ticket);
          reject(signal?.reason);
        };
        const ticket: Ticket = {
          endpoint,
          lane,
          resolve,
          reject,
          detach: () => signal?.removeEventListener('abort', onAbort),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queues.get(lane)?.push(ticket);
        schedulePump();
      });
    },
    poke: schedulePump,
    setGate(error) {
      gate = error;
      if (!error) return schedulePump();
      for (const queue of queues.values()) {
        for (const ticket of queue.splice(0)) {
          ticket.detach();
          ticket.reject(error);
        }
      }
      wake?.abort.abort();
      wake = null;
    },
    get waiting() {
      let n = 0;
      for (const queue of queues.values()) n += queue.length;
      return n;
    },
  };
}

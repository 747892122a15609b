import type { EndpointName } from '../api/endpoints.ts';
import type { ApiError } from '../api/errors.ts';
import type { BatchTask } from './types.ts';

/**
 * A job's batches waiting to be sent, one queue per endpoint, each in the
 * order the batches joined the job: a batch put back (paused while it
 * waited for its slot) returns to its place, not to the end.
 */
export interface Queued {
  readonly seq: number;
  /** The task as it goes now: `beforeSend` may revise it (fewer items). */
  task: BatchTask;
  /** Set once an attempt was sent and failed transiently: it may be reported as failed on cancel. */
  lastError: ApiError | null;
  sending: boolean;
}

export interface JobQueues {
  /** Queues the tasks in order; returns how many items they carry. */
  add(tasks: readonly BatchTask[]): number;
  /** Puts a batch taken from its queue back in its place. */
  putBack(item: Queued): void;
  /** The next batch of an endpoint, taken from its queue. */
  take(endpoint: EndpointName): Queued | undefined;
  /** Every batch still queued, in the order they joined; the queues are left empty. */
  drain(): Queued[];
  /** Each endpoint with how many batches wait for it, read as the iteration reaches it (workers started meanwhile take some). */
  lengths(): Iterable<[EndpointName, number]>;
  isEmpty(): boolean;
  forEach(each: (item: Queued) => void): void;
}

export function createJobQueues(): JobQueues {
  const queues = new Map<EndpointName, Queued[]>();
  let seq = 0;
  const queueOf = (endpoint: EndpointName) => {
    const queue = queues.get(endpoint) ?? [];
    queues.set(endpoint, queue);
    return queue;
  };
  return {
    add(tasks) {
      let items = 0;
      for (const task of tasks) {
        items += task.itemCount;
        queueOf(task.endpoint).push({ seq: seq++, task, lastError: null, sending: false });
      }
      return items;
    },
    putBack(item) {
      const queue = queueOf(item.task.endpoint);
      const at = queue.findIndex((q) => q.seq > item.seq);
      queue.splice(at < 0 ? queue.length : at, 0, item);
    },
    take: (endpoint) => queues.get(endpoint)?.shift(),
    drain() {
      const all = [...queues.values()].flat().sort((a, b) => a.seq - b.seq);
      queues.clear();
      return all;
    },
    *lengths() {
      for (const [endpoint, queue] of queues) yield [endpoint, queue.length];
    },
    isEmpty: () => [...queues.values()].every((q) => q.length === 0),
    forEach(each) {
      for (const queue of queues.values()) queue.forEach(each);
    },
  };
}

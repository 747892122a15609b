/**
 * A data worker for the boundary's own tests: hosts a small `echo` service
 * (values, failures, slow calls, a large text, a thread that never turns
 * again), pushes an event on demand, asks main to double a number, and
 * answers two channels of the bridge.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../../../src-main/core/errors.ts';
import { createAsker } from '../../../src-main/worker/asker.ts';
import { createDataHost, serveDataHost } from '../../../src-main/worker/data-host.ts';
import type { Implementation } from '../../../src-main/core/data/methods.ts';
import { ECHO_MAIN_METHODS, ECHO_METHODS } from './echo-methods.ts';

const port = parentPort;
if (!port) throw new Error('echo-worker.ts runs as a worker thread');

const asker = createAsker(ECHO_MAIN_METHODS, (message) => port.postMessage(message));
let opened = 0;
const spinFor = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};
const echo: Implementation<typeof ECHO_METHODS>['echo'] = {
  open() {
    opened += 1;
    return opened;
  },
  add: (a, b) => a + b,
  refuse: () => {
    throw new DomainError('conflict', 'not now');
  },
  crash: () => {
    throw new TypeError('a bug');
  },
  text: (length) => 'x'.repeat(length),
  wrapped: (length) => ({ csv: 'y'.repeat(length), rows: length }),
  reply: (length) => ({ ok: true, value: { csv: 'z'.repeat(length), rows: length } }),
  wait: (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms)),
  slow: (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms)),
  spin: (ms) => {
    spinFor(ms);
    return ms;
  },
  hang: () => {
    for (;;) spinFor(1_000);
  },
  // A number by its type, but not one the result schema allows: what a mistaken worker build would send.
  misfit: () => Number('not a number'),
  shout: (name) => {
    port.postMessage({ event: 'shout', payload: { name } });
    return true;
  },
  askDouble: (n) => asker.ask('main', 'double', n),
};
/** The bridge as a router would answer it: drafts:removeFailed counts what it was sent, drafts:exportCsv is a large text. */
async function bridge(channel: string, input: unknown) {
  if (channel === 'drafts:exportCsv') return { ok: true as const, value: { csv: 'c'.repeat(2_000_000) } };
  return { ok: true as const, value: { removed: typeof input === 'object' && input !== null && 'n' in input ? input.n : null } };
}
serveDataHost(port, createDataHost({ methods: ECHO_METHODS, targets: () => ({ echo }), bridge }), asker);

/**
 * A data worker for the boundary's own tests: hosts a small `echo` service
 * (values, failures, a slow call, a large text) and pushes an event on demand.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../../../src-main/core/errors.ts';
import { createDataHost } from '../../../src-main/core/data/host.ts';

let opened = 0;
const echo = {
  open() {
    opened += 1;
    return opened;
  },
  add: (a: number, b: number) => a + b,
  refuse: () => {
    throw new DomainError('conflict', 'not now');
  },
  crash: () => {
    throw new TypeError('a bug');
  },
  text: (length: number) => 'x'.repeat(length),
  wrapped: (length: number) => ({ csv: 'y'.repeat(length), rows: length }),
  reply: (length: number) => ({ ok: true, value: { csv: 'z'.repeat(length), rows: length } }),
  wait: (ms: number) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
  spin: (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    return ms;
  },
  shout: (name: string) => {
    parentPort?.postMessage({ event: 'shout', payload: { name } });
    return true;
  },
};
const host = createDataHost({ targets: () => ({ echo }) });
parentPort?.on('message', (message: unknown) => {
  void host.handle(message).then(({ reply, transfer }) => parentPort?.postMessage(reply, transfer));
});

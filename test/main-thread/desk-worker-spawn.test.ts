import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnAhead } from '../../src-main/main-thread/desk-worker-spawn.ts';

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});
const started = (code: string) => () => {
  const worker = new Worker(code, { eval: true });
  workers.push(worker);
  return worker;
};

describe('a worker started ahead of its client', () => {
  it('tells the client of an error and an exit that came before it listened', async () => {
    const take = spawnAhead(started('throw new Error("the desk could not load")'));
    const first = workers[0];
    if (!first) throw new Error('no worker was started ahead');
    await new Promise((resolve) => first.on('exit', resolve));
    const port = take();
    const told: string[] = [];
    port.on('error', (error) => told.push(`error: ${error.message}`));
    port.on('exit', (code) => told.push(`exit ${code}`));
    await Promise.resolve();
    expect(told).toEqual(['error: the desk could not load', 'exit 1']);
  });

  it('answers what the client asks, on the worker started first; a later start is a new worker', async () => {
    const take = spawnAhead(started('require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage(m * 2))'));
    expect(workers).toHaveLength(1);
    const port = take();
    expect(port).toBe(workers[0]);
    const answer = new Promise((resolve) => port.on('message', resolve));
    port.postMessage(21);
    expect(await answer).toBe(42);
    expect(take()).not.toBe(port);
    expect(workers).toHaveLength(2);
  });
});

import { z } from 'zod';
import { DomainError } from '../core/errors.ts';
import type { ArgsOf, Call, MethodMap, MethodOf, ResultOf, Target } from '../core/data/methods.ts';
import { answerHead, CROSSING, partOf, type WorkerAsk } from '../core/data/protocol.ts';

/**
 * The worker's side of asking main (see `workerAsk`): each ask is a message
 * and a promise of main's answer, parsed with the result schema of main's
 * method map; an error value is thrown here as a DomainError of its kind,
 * and an ask main leaves unanswered past its method's deadline ends in a
 * `busy` error.
 */
export interface Asker<A extends MethodMap<A>> {
  readonly ask: Call<A>;
  /** Takes main's answer to an ask; false when the message is not one (a request for the host). */
  settle(message: unknown): boolean;
}

export function createAsker<A extends MethodMap<A>>(methods: A, post: (message: WorkerAsk) => void): Asker<A> {
  let next = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  async function ask<T extends Target<A>, K extends MethodOf<A, T>>(target: T, name: K, ...args: ArgsOf<A, T, K>): Promise<ResultOf<A, T, K>> {
    const spec = methods[target][name];
    const id = next++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<unknown>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      timer = setTimeout(() => {
        waiting.delete(id);
        reject(new DomainError('busy', `The app did not answer the desk’s question (${target}.${name}) within ${Math.round(spec.deadlineMs / 1000)} s; try again in a moment`));
      }, spec.deadlineMs);
      post({ ask: id, target, method: name, args: [...args] });
    });
    try {
      const value = await answered;
      const schema: A[T][K]['result'] = spec.result;
      const parsed = z.safeParse(schema, value, CROSSING);
      if (!parsed.success) throw new DomainError('internal', `The app answered ${target}.${name} with a value that does not fit it`);
      return parsed.data;
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    ask,
    settle(message) {
      if (typeof message !== 'object' || message === null || !('answer' in message)) return false;
      const head = answerHead.safeParse(message, CROSSING);
      if (!head.success) return true;
      const waiter = waiting.get(head.data.answer);
      if (!waiter) return true;
      waiting.delete(head.data.answer);
      // The value is read by the method's result schema, in `ask`.
      if (head.data.ok) waiter.resolve(partOf(message, 'value'));
      else waiter.reject(new DomainError(head.data.error.kind, head.data.error.message));
      return true;
    },
  };
}

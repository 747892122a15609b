import { DomainError } from '../errors.ts';
import { mainAnswer, type WorkerAsk } from './protocol.ts';

/**
 * The worker's side of asking main (see `workerAsk`): each ask is a message
 * and a promise of main's answer, which comes back as a value or an error
 * value and is thrown here as a DomainError of its kind.
 */
export interface Asker {
  ask(target: string, method: string, args: readonly unknown[]): Promise<unknown>;
  /** Takes main's answer to an ask; false when the message is not one (a request for the host). */
  settle(message: unknown): boolean;
}

export function createAsker(post: (message: WorkerAsk) => void): Asker {
  let next = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  return {
    ask(target, method, args) {
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        post({ ask: id, target, method, args: [...args] });
      });
    },
    settle(message) {
      if (typeof message !== 'object' || message === null || !('answer' in message)) return false;
      const parsed = mainAnswer.safeParse(message);
      if (!parsed.success) return true;
      const waiter = waiting.get(parsed.data.answer);
      if (!waiter) return true;
      waiting.delete(parsed.data.answer);
      if (parsed.data.ok) waiter.resolve(parsed.data.value);
      else waiter.reject(new DomainError(parsed.data.error.kind, parsed.data.error.message));
      return true;
    },
  };
}

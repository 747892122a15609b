import { afterEach } from 'vitest';
import { startLive, type Live, type LiveOptions } from './live.ts';

/**
 * For test files against the sandbox: `const start = liveFixture(scale)`;
 * each test calls `await start()` and the stack is closed after it.
 */
export function liveFixture(scale: number): (options?: LiveOptions) => Promise<Live> {
  let live: Live | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });
  return async (options) => {
    live = await startLive(scale, options);
    return live;
  };
}

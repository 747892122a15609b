/**
 * One run at a time of an async task, however often it is asked for: asks
 * that come while it runs make one more run after it, not one each. A burst
 * of pushes from main (an apply marks batch after batch done) becomes one
 * or two reads, never a queue of them.
 */
export function coalesce(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    // `running` is cleared in the same step that sees no ask came meanwhile: cleared a step later (a
    // `.finally` on the promise), an ask in between would find the run still there and be lost.
    running = (async () => {
      try {
        do {
          again = false;
          await task();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

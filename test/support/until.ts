/**
 * Waits until `check` returns something truthy, polling every few
 * milliseconds of real time; fails naming `what` after `timeoutMs`. For
 * tests that watch something the code does in its own time (over HTTP, on
 * a scaled clock).
 */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 8_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

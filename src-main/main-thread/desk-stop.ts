import type { AppLog } from '../core/shell/app-log.ts';
import type { DeskConnection } from './desk-connection.ts';

/**
 * How long a stop waits for batches in flight. The client's own timeouts end
 * a request well before; this only bounds a wait that something unforeseen
 * keeps open, so Quit (or SIGTERM) always ends.
 */
export const QUIT_DRAIN_MS = 60_000;

/**
 * Stops the desk as both shells quit: a batch on its way gets its outcome
 * journaled (the rest waits for the next start, which resumes it from the
 * journal), then the desk closes its store (checkpointed) in the worker and
 * the worker ends. The heartbeat is left as last sent, valid for its ten
 * minutes: nothing marks the account as no longer automated.
 */
export async function stopDesk(connection: DeskConnection, log: Pick<AppLog, 'warn'>, drainMs = QUIT_DRAIN_MS): Promise<void> {
  await withTimeout(connection.desk.suspendApplies().catch((error: unknown) => log.warn('suspending applies failed', { error })), drainMs);
  await connection.close();
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

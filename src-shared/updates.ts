import { z } from 'zod';

/**
 * What the renderer and the tray are told about updates. `restartPending`:
 * the trader asked to restart while an apply runs; the restart waits for it.
 */
export const updateView = z.object({
  state: z.enum(['off', 'idle', 'checking', 'downloading', 'ready', 'error']),
  /** The newer version found (being downloaded, or ready). */
  version: z.string().nullable(),
  percent: z.number().min(0).max(100).nullable(),
  restartPending: z.boolean(),
  /** Why the last check or download failed, or why updates are off. */
  message: z.string().nullable(),
  checkedAt: z.number().nullable(),
});
export type UpdateView = z.output<typeof updateView>;

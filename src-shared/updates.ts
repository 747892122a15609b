import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * What the renderer and the tray are told about updates. `restartPending`:
 * the trader asked to restart while an apply runs; the restart waits for it.
 * `refused`: the newer version was downloaded but failed a check (its
 * signature, its checksum, a downgrade, a redirect off the feed), so it was
 * deleted, not installed; `message` says which.
 */
export const updateView = lazySchema(() => z.object({
  state: z.enum(['off', 'idle', 'checking', 'downloading', 'ready', 'error', 'refused']),
  /** The newer version found (being downloaded, ready, or refused). */
  version: z.string().nullable(),
  percent: z.number().min(0).max(100).nullable(),
  restartPending: z.boolean(),
  /** Why the last check or download failed or was refused, or why updates are off. */
  message: z.string().nullable(),
  checkedAt: z.number().nullable(),
}));
export type UpdateView = z.output<typeof updateView>;

/** The sentence Settings shows for the update state. */
export function describeUpdate(view: UpdateView): string {
  switch (view.state) {
    case 'off': return view.message ?? 'Automatic updates are off.';
    case 'idle': return view.checkedAt ? `Up to date (checked ${new Date(view.checkedAt).toLocaleString()}).` : 'Not checked yet.';
    case 'checking': return 'Checking for updates…';
    case 'downloading': return `Downloading version ${view.version} (${Math.round(view.percent ?? 0)}%)…`;
    case 'ready': return `Version ${view.version} is ready: restart to install it.`;
    case 'error': return `The last update check failed: ${view.message}`;
    case 'refused': return `${view.version ? `Version ${view.version}` : 'An update'} was refused and not installed: ${view.message}`;
  }
}

import { z } from 'zod';

/**
 * What the rest of the app needs to know of a channel besides its schemas,
 * written beside each channel in contract.ts and nowhere else: the main
 * thread routes by `answeredBy`, the desk's router waits by
 * `waitsForBulkWrites`, the recovery screen's router answers by
 * `duringRecovery`.
 */
export interface ChannelFacts {
  /** The desk (its router, in the data worker), or main itself: those need Electron (a dialog, the updater). */
  readonly answeredBy: 'main' | 'desk';
  /**
   * Changes a draft or reads it whole: a bulk edit is confirmed once journaled
   * and its parts are written after (core/drafts/bulk-patch.ts), so the
   * channel waits for that rather than meet a refusal the trader did not
   * cause by clicking quickly.
   */
  readonly waitsForBulkWrites?: true;
  /** Answered while the profile could not be opened: the recovery screen's channels (by the desk's host). */
  readonly duringRecovery?: true;
}
/** The facts most channels have, and the few others have, by name. */
export const byDesk = { answeredBy: 'desk' } as const satisfies ChannelFacts;
export const byMain = { answeredBy: 'main' } as const satisfies ChannelFacts;
export const afterBulkWrites = { answeredBy: 'desk', waitsForBulkWrites: true } as const satisfies ChannelFacts;
export const duringRecovery = { answeredBy: 'desk', duringRecovery: true } as const satisfies ChannelFacts;

/** A channel: its input and output schemas, and its facts. */
export const channel = <I, O, F extends ChannelFacts>(input: I, output: O, facts: F) => ({ input, output, ...facts });

/** The input of a channel that takes none, and the output of one that answers only that it was done. */
export const none = z.object({}).strict();
export const ok = z.object({ ok: z.literal(true) });

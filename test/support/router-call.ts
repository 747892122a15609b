import type { Router } from '../../src-main/ipc/router.ts';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../src-shared/contract.ts';
import { textParts } from '../../src-shared/csv-parts.ts';

/** Invokes a channel and returns its typed value, failing the test (or bench) on an error value. */
export async function call<C extends ChannelName>(router: Pick<Router, 'invoke'>, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as ChannelOutput<C>;
}

type PartInput = ChannelInput<'drafts:importCsvPart'>;
type PartAnswer = ChannelOutput<'drafts:importCsvPart'>;

/**
 * A CSV text sent as the renderer sends it: a part at a time, in order, each
 * waiting for the answer to the one before (`send`: the router's or the
 * bridge's call of drafts:importCsvPart). Answers the preview of the last part.
 */
export async function importCsvInParts(
  send: (input: PartInput) => Promise<PartAnswer>, kind: 'listings' | 'buyOrders' | 'draft', text: string, size?: number,
): Promise<NonNullable<PartAnswer['preview']>> {
  let upload: string | null = null;
  for (const part of textParts(text, size)) {
    const { seq, text: partText, last } = part;
    const answer = await send(upload === null ? { kind, seq, text: partText, last } : { upload, seq, text: partText, last });
    if (answer.preview) return answer.preview;
    upload = answer.upload;
  }
  throw new Error('the last part was answered without a preview');
}

import type { ChannelInput, ChannelName, DeskApi, IpcResult } from '../../../src-shared/contract.ts';

/**
 * The questions a window opening on a screen asks first, asked as soon as
 * its page is parsed (first-asks.ts), while the app's code is still being
 * loaded and evaluated: main's answers are then in when the stores ask the
 * same questions, and the window is built that much sooner. Each answer is
 * taken once, by the first call that asks the very same question, and only
 * while the window is being built (`dropEarlyAsks` after).
 */
export interface EarlyAsk<C extends ChannelName = ChannelName> {
  readonly channel: C;
  readonly input: ChannelInput<C>;
}

const asked = new Map<string, Promise<IpcResult<unknown>>>();
const keyOf = (channel: string, input: unknown) => `${channel}\u0000${JSON.stringify(input)}`;

/** Asks each question now; nothing is asked without a bridge (the call asks then as it would have). */
export function askEarly(api: DeskApi | undefined, asks: readonly EarlyAsk[]): void {
  if (api === undefined) return;
  for (const { channel, input } of asks) {
    const answer = api.invoke(channel, input) as Promise<IpcResult<unknown>>;
    // An answer nobody takes is not an unhandled failure: a call that takes it sees the failure itself.
    answer.catch(() => undefined);
    asked.set(keyOf(channel, input), answer);
  }
}

/** The answer to this very question if it was asked early and not yet taken. */
export function takeEarlyAnswer(channel: string, input: unknown): Promise<IpcResult<unknown>> | undefined {
  if (asked.size === 0) return undefined;
  const key = keyOf(channel, input);
  const answer = asked.get(key);
  asked.delete(key);
  return answer;
}

/** The window is built: what was asked early and not taken is dropped (a later call asks afresh). */
export function dropEarlyAsks(): void {
  asked.clear();
}

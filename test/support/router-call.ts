import type { Router } from '../../src-main/ipc/router.ts';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../src-shared/contract.ts';

/** Invokes a channel and returns its typed value, failing the test (or bench) on an error value. */
export async function call<C extends ChannelName>(router: Pick<Router, 'invoke'>, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as ChannelOutput<C>;
}

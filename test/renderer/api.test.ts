import { afterEach, describe, expect, it } from 'vitest';
import { call, DeskError, errorViewOf } from '../../src-renderer/src/bridge/api.ts';
import { installFakeApi, Refusal, type FakeApi } from './fake-api.ts';

describe('bridge wrapper', () => {
  let fake: FakeApi | null = null;
  afterEach(() => fake?.uninstall());

  it('returns the value of a successful call', async () => {
    fake = installFakeApi({ 'balance:get': () => ({ stamp: 1, reading: { balance: 5, pending_balance: 0, readAt: 1 } }) });
    await expect(call('balance:get', {})).resolves.toEqual({ stamp: 1, reading: { balance: 5, pending_balance: 0, readAt: 1 } });
  });

  it('turns { ok: false } into a DeskError carrying the ErrorView', async () => {
    fake = installFakeApi({
      'balance:refresh': () => {
        throw new Refusal({ kind: 'rate_limited', message: 'wait', retryAfterMs: 30_000 });
      },
    });
    const err = await call('balance:refresh', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskError);
    expect((err as DeskError).view).toEqual({ kind: 'rate_limited', message: 'wait', retryAfterMs: 30_000 });
    expect((err as DeskError).channel).toBe('balance:refresh');
  });

  it('reports a missing bridge as such, not as a crash', async () => {
    const err = await call('app:status', {}).catch((e: unknown) => e);
    expect(errorViewOf(err).kind).toBe('bridge');
    expect(errorViewOf(new Error('boom'))).toEqual({ kind: 'internal', message: 'boom' });
  });
});

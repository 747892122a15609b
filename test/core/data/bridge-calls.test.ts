import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EventName, EventPayload, IpcResult } from '../../../src-shared/contract.ts';
import { readBridgeEvent, readBridgeReply } from '../../../src-main/core/data/bridge-calls.ts';
import { CROSSING_PLAIN_FOR } from '../../../src-main/core/data/protocol.ts';

/**
 * What main reads of the bridge's traffic from the data worker: each reply by
 * its channel's output schema, each event by its own payload schema, typed
 * by the name; what does not fit is said, never passed on.
 */
describe('the bridge across the worker boundary', () => {
  it('reads a reply by its channel\'s output schema, typed by the channel', () => {
    const reply = readBridgeReply('drafts:removeFailed', { ok: true, value: { removed: 3, extra: 'dropped' } });
    expect(reply).toEqual({ result: { ok: true, value: { removed: 3 } } });
    if ('result' in reply) expectTypeOf(reply.result).toEqualTypeOf<IpcResult<{ removed: number }>>();
  });

  it('passes the router\'s refusal on as it is', () => {
    const refusal = { kind: 'invalid' as const, message: 'drafts:create: name: too long' };
    expect(readBridgeReply('drafts:create', { ok: false, error: refusal })).toEqual({ result: { ok: false, error: refusal } });
  });

  it('says what did not fit: a value outside the channel\'s schema, or no answer of the bridge at all', () => {
    expect(readBridgeReply('drafts:removeFailed', { ok: true, value: { removed: 'three' } }))
      .toEqual({ misfit: expect.stringMatching(/^output of drafts:removeFailed does not match the contract: removed: /) });
    expect(readBridgeReply('drafts:removeFailed', { ok: true })).toEqual({ misfit: expect.stringContaining('drafts:removeFailed') });
    expect(readBridgeReply('drafts:removeFailed', { ok: 'yes' })).toEqual({ misfit: 'the reply to drafts:removeFailed is not an answer of the bridge' });
    expect(readBridgeReply('drafts:removeFailed', { ok: false, error: { kind: 'no such kind', message: 'x' } })).toMatchObject({ misfit: expect.any(String) });
  });

  it('reads a channel asked again and again alike before and after it goes onto zod\'s compiled path', () => {
    const misfit = () => readBridgeReply('drafts:removeFailed', { ok: true, value: { removed: -1.5 } });
    const fits = (n: number) => readBridgeReply('drafts:removeFailed', { ok: true, value: { removed: n, extra: 'dropped' } });
    const early = [misfit(), fits(2)];
    for (let i = 0; i < CROSSING_PLAIN_FOR * 2; i++) expect(fits(i)).toEqual({ result: { ok: true, value: { removed: i } } });
    expect([misfit(), fits(2)]).toEqual(early);
    expect(early[1]).toEqual({ result: { ok: true, value: { removed: 2 } } });
    expect(early[0]).toEqual({ misfit: expect.stringMatching(/^output of drafts:removeFailed does not match the contract: removed: /) });
  });

  it('reads an event by its own payload schema, typed by its name, and drops one that does not fit or is not the contract\'s', () => {
    const heard: { event: EventName; payload: unknown }[] = [];
    const listen = <E extends EventName>(event: E, payload: EventPayload<E>) => void heard.push({ event, payload });
    expect(readBridgeEvent('drafts:changed', { stamp: 4, draftId: 'd1' }, listen)).toBe(true);
    expect(readBridgeEvent('drafts:changed', { stamp: 5, draftId: 7 }, listen)).toBe(false);
    expect(readBridgeEvent('view', { stamp: 6 }, listen)).toBe(false);
    expect(readBridgeEvent('toString', {}, listen)).toBe(false);
    expect(heard).toEqual([{ event: 'drafts:changed', payload: { stamp: 4, draftId: 'd1' } }]);
  });
});

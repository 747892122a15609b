import { describe, expect, it } from 'vitest';
import { describeError, fieldLabel, wordError } from '../../../src-renderer/src/lib/error-text.ts';

describe('error wording', () => {
  it('tells the trader to replace a rejected key', () => {
    expect(describeError({ kind: 'auth', message: '401', status: 401 })).toBe('The API key was rejected — replace it in Settings.');
  });

  it('gives the wait of a 429 in whole seconds and says nothing is lost', () => {
    expect(describeError({ kind: 'rate_limited', message: 'x', retryAfterMs: 41_200 })).toBe('The service asked the desk to wait 42 s; nothing is lost.');
    expect(describeError({ kind: 'rate_limited', message: 'x', retryAfterMs: 10 })).toContain('wait 1 s');
    // A wait the desk bounded says the bound.
    expect(describeError({ kind: 'rate_limited', message: 'x', retryAfterMs: 15 * 60_000 })).toBe(
      'The service asked the desk to wait 15 min or more; the desk waits at most 15 min, then tries again. Nothing is lost.',
    );
  });

  it('words offline as offline, not as an error code', () => {
    const text = describeError({ kind: 'network', message: 'ECONNREFUSED 127.0.0.1' });
    expect(text).toMatch(/cannot be reached/);
    expect(text).not.toMatch(/ECONN/);
  });

  it('names the field (and the item) of an invalid input', () => {
    const text = describeError({
      kind: 'invalid',
      message: 'bad',
      issues: [
        { item: 2, field: 'items.2.price', message: 'must be more than 0 cents' },
        { field: 'trade_url', message: 'must look like https://…' },
      ],
    });
    expect(text).toContain('item 3: price must be more than 0 cents');
    expect(text).toContain('trade URL must look like');
  });

  it('says what the desk was doing when the service failed, with the endpoint and status behind Details', () => {
    const worded = wordError({ kind: 'server', message: 'x', endpoint: 'edit_listing', status: 503 });
    expect(worded.text).toBe('The service had a problem on its side when asked to edit these listings. It is retried automatically.');
    expect(worded.details).toEqual(['Endpoint: edit_listing', 'HTTP status: 503']);
  });

  it('asks for a decision on an unknown outcome instead of a re-send', () => {
    expect(describeError({ kind: 'unknown_outcome', message: 'x' })).toMatch(/Resolve it in Drafts/);
  });

  it('never shows the message of an internal failure', () => {
    expect(describeError({ kind: 'internal', message: 'TypeError: x is undefined' })).not.toMatch(/TypeError/);
  });

  it('words the trader’s own mistakes and passing states by their message, not as a failure of the app', () => {
    const gone = describeError({ kind: 'not_found', message: 'There is no draft “d-1”; it may have been discarded' });
    expect(gone).toBe('There is no draft “d-1”; it may have been discarded.');
    expect(describeError({ kind: 'conflict', message: 'This draft has changes being applied.' })).toBe('This draft has changes being applied.');
    expect(describeError({ kind: 'busy', message: 'x' })).toMatch(/try again in a moment\. Nothing was lost\./);
    for (const kind of ['not_found', 'conflict', 'busy'] as const) {
      expect(describeError({ kind, message: 'x' })).not.toMatch(/Something went wrong|refreshed/);
    }
  });

  it('ends a message with one full stop, whatever the message ends with', () => {
    expect(describeError({ kind: 'invalid', message: 'Automation is not active. Turn it on.' })).toBe('Not accepted: Automation is not active. Turn it on.');
    expect(describeError({ kind: 'invalid', message: 'the name is empty' })).toBe('Not accepted: the name is empty.');
  });

  it('counts the problems a refusal did not list', () => {
    const issues = Array.from({ length: 20 }, (_, i) => ({ field: `changes.${i}.price`, message: 'must be a number' }));
    expect(describeError({ kind: 'invalid', message: 'x', issues, moreIssues: 980 })).toMatch(/\(and 997 more problems\)\.$/);
  });

  it('says how to unlock a locked keychain when main says so', () => {
    const text = describeError({ kind: 'keychain_unavailable', message: 'The system keychain is locked. Unlock it and save the key again' });
    expect(text).toBe('The system keychain is locked. Unlock it and save the key again.');
    expect(describeError({ kind: 'keychain_unavailable', message: '' })).toMatch(/system keychain is not available/);
  });

  it('labels dotted field paths by their last name', () => {
    expect(fieldLabel('items.12.user_note')).toBe('note');
    expect(fieldLabel('multiaccount_proxy')).toBe('account');
    expect(fieldLabel('items[2].some_field')).toBe('some field');
  });
});

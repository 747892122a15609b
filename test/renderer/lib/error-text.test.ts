import { describe, expect, it } from 'vitest';
import { describeError, fieldLabel } from '../../../src-renderer/src/lib/error-text.ts';

describe('error wording', () => {
  it('tells the trader to replace a rejected key', () => {
    expect(describeError({ kind: 'auth', message: '401', status: 401 })).toBe('The API key was rejected — replace it in Settings.');
  });

  it('gives the wait of a 429 in whole seconds and says nothing is lost', () => {
    expect(describeError({ kind: 'rate_limited', message: 'x', retryAfterMs: 41_200 })).toBe('The service asked us to wait 42 s; nothing is lost.');
    expect(describeError({ kind: 'rate_limited', message: 'x', retryAfterMs: 10 })).toContain('wait 1 s');
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

  it('says which endpoint and status a server error came from', () => {
    expect(describeError({ kind: 'server', message: 'x', endpoint: 'edit_listing', status: 503 })).toBe(
      'The service had a problem (edit_listing) (status 503). It is retried automatically.',
    );
  });

  it('asks for a decision on an unknown outcome instead of a re-send', () => {
    expect(describeError({ kind: 'unknown_outcome', message: 'x' })).toMatch(/Resolve it in Drafts/);
  });

  it('never shows the message of an internal failure', () => {
    expect(describeError({ kind: 'internal', message: 'TypeError: x is undefined' })).not.toMatch(/TypeError/);
  });

  it('labels dotted field paths by their last name', () => {
    expect(fieldLabel('items.12.user_note')).toBe('note');
    expect(fieldLabel('multiaccount_proxy')).toBe('multiaccount_proxy');
  });
});

import { describe, expect, it } from 'vitest';
import { activityMessage } from '../../../src-renderer/src/lib/activity-words.ts';
import { badWording } from './wording-rules.ts';

describe('Activity messages as a trader reads them', () => {
  const MAIN = '76561198104105779';

  it('says what happened first, names items as assets and buy orders, and leaves out the main account', () => {
    expect(activityMessage(`account ${MAIN} · L:11000169483, L:11000171305 · sold: trade 6100028960 has left the pending list`, MAIN))
      .toBe('sold: trade 6100028960 has left the pending list · asset 11000169483, asset 11000171305');
    expect(activityMessage('account 76561198409670925 · B:5021;6 · refused', MAIN)).toBe('refused · buy order 5021;6 · linked account …0925');
  });

  it('keeps endpoint names, status codes and network codes out of the words (the tooltip keeps the message as logged)', () => {
    const text = activityMessage(`account ${MAIN} · L:1, L:2 · create_listing: the request may have reached the service but its response was lost (UND_ERR_SOCKET); check the result before sending it again`, MAIN);
    expect(text).toBe('the request may have reached the service but its response was lost; check the result before sending it again · asset 1, asset 2');
    expect(badWording(activityMessage('edit_listing: the service refused the request (status 400): {"success":false,"error":"x"}', MAIN))).toBeNull();
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';
import { deskTestScope } from './desk-fixture.ts';

const { opened, tempDir } = deskTestScope('one-desk-');

describe('one desk per profile', () => {
  it('a second desk on the profile refuses, saying another desk has it open; the draft both want to apply is created once', async () => {
    const clock = scaledClock(600);
    const service = await startSandbox({ clock, tradeSchedule: false, inventorySize: 300 });
    opened.push(service);
    const dataDir = tempDir();
    const secrets = memoryKeychain();
    await secrets.set('api-key:default', service.apiKey);
    const options = { dataDir, secrets, clock, version: 'test', initialSettings: { mode: 'live' as const, serviceUrl: service.url, refuseUnautomatedPosts: false } };
    const first: Desk = await createDesk(options);
    opened.push(first);
    await until('the main account read', () => first.workspace().accounts.snapshot().main);
    const { drafts, apply } = first.workspace();
    const draft = drafts.create('two desks');
    const assets = service.admin.inventory().slice(0, 200);
    drafts.addChanges(draft.id, assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0 })));

    // The second desk on the same folder (another copy of the app, a second worker) is turned away before it opens anything.
    await expect(createDesk(options)).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/^Another Marketplace Desk has this profile open \(process \d+ on /),
    });
    expect(existsSync(join(dataDir, 'default.lock'))).toBe(true);

    const final = await apply.apply(draft.id).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 200 });
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    expect(existsSync(join(dataDir, 'default.lock'))).toBe(false);

    // Once the first has closed, the second opens and applies the same draft: nothing is left to send.
    const second = await createDesk(options);
    opened.push(second);
    const again = await second.workspace().apply.apply(draft.id).done;
    expect(again).toMatchObject({ state: 'done', itemsTotal: 0, requestsSent: 0 });
    expect(service.log.counters.listingsCreated).toBe(200);
    expect(service.log.counters.duplicateCreates).toBe(0);
    expect(service.admin.listings().filter((l) => l.state === 'active').length).toBe(200);
  });
});

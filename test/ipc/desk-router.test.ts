import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../src-main/ipc/desk-router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../src-shared/contract.ts';
import type { Router } from '../../src-main/ipc/router.ts';

/** Invokes a channel and returns its typed value, failing the test on an error value. */
async function call<C extends ChannelName>(router: Router, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as ChannelOutput<C>;
}

let desk: Desk | null = null;
let service: Sandbox | null = null;
let dir = '';
afterEach(async () => {
  await desk?.close();
  await service?.close();
  desk = null;
  service = null;
  rmSync(dir, { recursive: true, force: true });
});

async function liveDesk() {
  dir = mkdtempSync(join(tmpdir(), 'router-'));
  service = await startSandbox({ seed: 9 });
  desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: service.url } });
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
  await router.invoke('key:set', { key: service.apiKey });
  // Setting a key makes the desk read the accounts (get_linked_trade_urls allows one a minute).
  const ws = desk.workspace();
  await new Promise<void>((resolve) => {
    if (ws.accounts.snapshot().main) resolve();
    else ws.accounts.on('changed', (s) => s.main && resolve());
  });
  return { router, desk, service };
}

describe('desk router', () => {
  it('refuses to reopen the workspace while an apply runs, and allows it after', async () => {
    const { router, desk: d, service: s } = await liveDesk();
    d.settings.update({ refuseUnautomatedPosts: false });
    const draft = await call(router, 'drafts:create', { name: 'long' });
    // Six requests of creates: the sixth waits a whole minute for create_listing's 5/min.
    const changes = s.admin.inventory().slice(0, 600).map((a) => ({ kind: 'listing.create' as const, asset_id: a.asset_id, price: 300, promoted: 0 as const }));
    await call(router, 'drafts:addChanges', { draftId: draft.id, changes });
    const started = await call(router, 'drafts:apply', { draftId: draft.id });
    expect(started).toMatchObject({ state: 'running', itemsTotal: 600 });

    const refused = await router.invoke('settings:update', { mode: 'sandbox' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringMatching(/apply is running/) } });
    // A setting that does not reopen anything is fine meanwhile.
    expect(await router.invoke('settings:update', { theme: 'dark' })).toMatchObject({ ok: true });

    await call(router, 'apply:cancel', { jobId: started.jobId });
    await d.workspace().apply.handles()[0]?.done;
    expect(await router.invoke('settings:update', { tradePollSeconds: 120 })).toMatchObject({ ok: true, value: { tradePollSeconds: 120 } });
  });

  it('refuses to apply while automation is off when the trader asked for that', async () => {
    const { router, desk: d } = await liveDesk();
    d.settings.update({ heartbeatEnabled: false });
    const draft = await call(router, 'drafts:create', { name: 'x' });
    const result = await router.invoke('drafts:apply', { draftId: draft.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'conflict', message: expect.stringMatching(/Automation is not active/) } });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { allowedExternalUrl } from '../../src-main/core/shell/external-links.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';

let desk: Desk | null = null;
let dir = '';
afterEach(async () => {
  await desk?.close();
  desk = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('a trade partner’s pages', () => {
  it('open the partner’s profile on Steam, backpack.tf and SteamRep through the link allowlist, and nothing for a malformed ID', async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-pages-'));
    desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: 'https://market.example' } });
    const opened: string[] = [];
    const { router } = createDeskRouter(desk, { openLink: (url) => void opened.push(url) }, { checkOutputs: true });
    for (const site of ['steam', 'backpack', 'steamrep'] as const) {
      expect(await call(router, 'trades:openPartnerPage', { id64: '76561198000000009', site })).toEqual({ ok: true });
    }
    expect(opened).toEqual([
      'https://steamcommunity.com/profiles/76561198000000009',
      'https://backpack.tf/profiles/76561198000000009',
      'https://steamrep.com/profiles/76561198000000009',
    ]);
    // What the desktop opens is what its allowlist lets through, unchanged.
    for (const url of opened) expect(allowedExternalUrl(url, { serviceOrigins: [] })).toBe(url);
    const refused = await router.invoke('trades:openPartnerPage', { id64: '7656/../../login', site: 'steam' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(opened).toHaveLength(3);
  });
});

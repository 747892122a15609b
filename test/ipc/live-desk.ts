import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';

export { call } from '../support/router-call.ts';

/** A desk in live mode against the simulator, its key set and its accounts read, behind the app's router. */
export interface LiveDesk {
  readonly router: Router;
  readonly desk: Desk;
  readonly service: Sandbox;
  readonly dir: string;
  close(): Promise<void>;
}

export async function startLiveDesk(seed: number): Promise<LiveDesk> {
  const dir = mkdtempSync(join(tmpdir(), 'live-desk-'));
  const service = await startSandbox({ seed });
  const desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: service.url }, inventoryUrl: service.url });
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
  await router.invoke('key:set', { key: service.apiKey });
  // Setting a key makes the desk read the accounts (get_linked_trade_urls allows one a minute).
  const ws = desk.workspace();
  await new Promise<void>((resolve) => {
    if (ws.accounts.snapshot().main) resolve();
    else ws.accounts.on('changed', (s) => s.main && resolve());
  });
  return {
    router,
    desk,
    service,
    dir,
    async close() {
      await desk.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}


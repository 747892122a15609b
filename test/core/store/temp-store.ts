import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../src-main/core/clock.ts';
import { openStore, type Store } from '../../../src-main/core/store/db.ts';
import { createRepos, type Repos } from '../../../src-main/core/store/index.ts';

/** A real database file in a fresh temp folder, removed by `dispose`. */
export interface TempStore {
  readonly dir: string;
  readonly path: string;
  store: Store;
  repos: Repos;
  /** Closes and opens the same file again, as a restart would. */
  reopen(): void;
  dispose(): void;
}

export const MAIN = '76561198000000001';
export const LINKED = '76561198000000002';

/** `parent`: where the temp folder is made (another disk, e.g. a small tmpfs); default the OS temp folder. */
export function tempStore(options: { clock?: Clock; seedAccounts?: boolean; parent?: string } = {}): TempStore {
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'desk-store-'));
  const path = join(dir, 'profile.sqlite');
  const open = () => openStore(path, options.clock ? { clock: options.clock } : {});
  const t: TempStore = {
    dir,
    path,
    store: open(),
    repos: undefined as unknown as Repos,
    reopen() {
      t.store.close();
      t.store = open();
      t.repos = createRepos(t.store);
    },
    dispose() {
      t.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  t.repos = createRepos(t.store);
  if (options.seedAccounts !== false) {
    t.repos.accounts.upsert({ account_id: MAIN, kind: 'main' });
    t.repos.accounts.upsert({ account_id: LINKED, kind: 'linked' });
  }
  return t;
}

import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_CREDENTIAL } from '../../../src-main/main-thread/server/key-store.ts';
import { connectRouter, setUp } from '../../e2e/server/server-client.ts';
import { startServe } from '../../e2e/server/serve-process.ts';
import { call } from '../../support/router-call.ts';

/** The key as systemd hands it to the unit: a file readable by this user alone, in a folder of `dir`'s. */
export function credentialsFor(dir: string, apiKey: string): string {
  const credentialsDir = join(dir, 'credentials');
  mkdirSync(credentialsDir, { mode: 0o700 });
  writeFileSync(join(credentialsDir, KEY_CREDENTIAL), apiKey, { mode: 0o600 });
  chmodSync(join(credentialsDir, KEY_CREDENTIAL), 0o600);
  return credentialsDir;
}

/**
 * The profile's access, made once as the trader makes it: the first start's
 * setup link sets the password, and a bearer token is made for scripts.
 * The server is stopped after; its files stay in `profileDir` (with the
 * compiled code its worker kept), and the token is returned. Without
 * `clock` the desk runs on real time (the link works 15 minutes of it).
 */
export async function prepareAccess(profileDir: string, credentialsDir: string, clock?: { scale: number; origin: number }): Promise<string> {
  const server = await startServe({ profileDir, throughLauncher: true, env: { CREDENTIALS_DIRECTORY: credentialsDir }, testConfig: clock ? { clock } : {} });
  try {
    const link = server.setupLink();
    if (!link) throw new Error('the first start printed no setup link');
    const router = await connectRouter(server.url, await setUp(server.url, link));
    const { token } = await call(router, 'access:createToken', { name: 'bench' });
    await router.close();
    return token;
  } finally {
    await server.stop('SIGTERM');
  }
}

/** A profile folder as the server keeps it, with `seedPath` as its default profile. */
export function profileFolder(profileDir: string, seedPath: string): string {
  mkdirSync(join(profileDir, 'profiles'), { recursive: true, mode: 0o700 });
  copyFileSync(seedPath, join(profileDir, 'profiles', 'default.sqlite'));
  return profileDir;
}

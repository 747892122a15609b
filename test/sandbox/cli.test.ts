import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../src-main/sandbox/cli.ts', import.meta.url));
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

/** Starts the CLI and collects stdout until `done` says enough was printed. */
async function run(args: string[], done: (text: string) => boolean): Promise<{ child: ChildProcess; text: string }> {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let text = '';
  if (!child.stdout) throw new Error('no stdout');
  for await (const line of createInterface({ input: child.stdout })) {
    text += `${line}\n`;
    if (done(text)) break;
  }
  return { child, text };
}

describe('sandbox CLI', () => {
  it('prints its URL, a working key and a curl example, and stops on SIGTERM', async () => {
    const { child, text } = await run(['--port', '0', '--inventory', '100', '--seed', '4'], (t) => t.includes('Ctrl+C'));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    const key = /API key \(sandbox only\): (\w+)/.exec(text)?.[1];
    expect(url && key).toBeTruthy();
    expect(text).toContain(`curl -s -H 'X-API-Key: ${key}' ${url}/api/dev/get_balance`);
    const res = await fetch(`${url}/api/dev/get_balance`, { headers: { 'X-API-Key': key ?? '' } });
    expect(res.status).toBe(200);
    const asset = /"asset_id":"(\d+)"/.exec(text)?.[1];
    const created = await fetch(`${url}/api/dev/create_listing`, {
      method: 'POST',
      headers: { 'X-API-Key': key ?? '', 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ asset_id: asset, price: 250, promoted: 0, game: '440' }] }),
    });
    expect(await created.json()).toMatchObject({ success: true, created_listings: [{ asset_id: asset }] });
    // Steam's inventory endpoint, as printed: no key, the same answer shape as Steam's.
    const inventoryUrl = /curl -s '([^']+\/inventory\/[^']+)'/.exec(text)?.[1];
    const inventory = await (await fetch(inventoryUrl ?? '')).json() as { assets: unknown[]; success: number };
    expect([inventory.assets.length, inventory.success]).toEqual([5, 1]);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('prints one JSON line with --json and runs a scaled clock with --time-scale', async () => {
    const origin = Date.now();
    const { text } = await run(['--port', '0', '--inventory', '100', '--json', '--time-scale', '600', '--origin', String(origin)], () => true);
    const info = JSON.parse(text) as { url: string; apiKey: string; timeScale: number; origin: number };
    expect(info).toMatchObject({ timeScale: 600, origin });
    const res = await fetch(`${info.url}/api/dev/set_user_agent`, { headers: { 'X-API-Key': info.apiKey } });
    const { refresh_at } = (await res.json()) as { refresh_at: number };
    // At x600, the sandbox clock is far ahead of the wall clock already.
    expect(refresh_at * 1000 - 600_000).toBeGreaterThan(Date.now() + 10_000);
  });
});

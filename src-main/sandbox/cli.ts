import { parseArgs } from 'node:util';
import { scaledClock, systemClock } from '../core/clock.ts';
import { startSandbox } from './index.ts';

/**
 * `npm run sandbox`: runs the simulator in the foreground and prints how to
 * reach it. The key it prints belongs to the simulator only; it is not a
 * secret of any real account.
 *
 * Flags: --port N (default 8787; 0 = any), --host H, --time-scale X (the
 * sandbox's minute lasts 60/X seconds), --origin MS (shared epoch for a scaled
 * clock), --seed N, --inventory N, --no-trades, --fixed-window, --json (one
 * machine-readable line instead of the text).
 */

const USAGE = `usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--time-scale 1] [--origin <ms>]
                        [--seed 1] [--inventory 20000] [--no-trades] [--fixed-window] [--json]`;

function numberFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) {
    console.error(`--${name} must be a number\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'time-scale': { type: 'string' },
    origin: { type: 'string' },
    seed: { type: 'string' },
    inventory: { type: 'string' },
    'no-trades': { type: 'boolean' },
    'fixed-window': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const timeScale = numberFlag(values['time-scale'], 'time-scale', 1);
const origin = numberFlag(values.origin, 'origin', systemClock.now());
const sandbox = await startSandbox({
  port: numberFlag(values.port, 'port', 8787),
  host: values.host ?? '127.0.0.1',
  clock: timeScale === 1 ? systemClock : scaledClock(timeScale, origin),
  seed: numberFlag(values.seed, 'seed', 1),
  inventorySize: numberFlag(values.inventory, 'inventory', 20_000),
  tradeSchedule: !values['no-trades'],
  rateWindow: values['fixed-window'] ? 'fixed' : 'sliding',
});

if (values.json) {
  console.log(JSON.stringify({
    url: sandbox.url,
    apiKey: sandbox.apiKey,
    keys: sandbox.keys,
    accounts: sandbox.accounts,
    timeScale,
    origin,
  }));
} else {
  const asset = sandbox.admin.inventory()[0];
  console.log(`Marketplace sandbox listening on ${sandbox.url}${timeScale === 1 ? '' : ` (time x${timeScale}, origin ${origin})`}
API key (sandbox only): ${sandbox.apiKey}
Main account: ${sandbox.accounts.main}; linked: ${sandbox.accounts.linked.join(', ')}

Try:
  curl -s -H 'X-API-Key: ${sandbox.apiKey}' ${sandbox.url}/api/dev/get_balance
  curl -s -X POST -H 'X-API-Key: ${sandbox.apiKey}' -H 'Content-Type: application/json' \\
    -d '{"items":[{"asset_id":"${asset?.asset_id ?? '0'}","price":250,"promoted":0,"game":"440"}]}' \\
    ${sandbox.url}/api/dev/create_listing
  curl -s '${sandbox.url}/inventory/${sandbox.accounts.main}/440/2?l=english&count=5'   # Steam's inventory endpoint, no key

Ctrl+C stops it.`);
}

const stop = () => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { AlertsDeps } from '../../../src-main/core/alerts/alerts-service.ts';
import { scaledClock, type Clock } from '../../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { logDeskEvents } from '../../../src-main/core/shell/desk-log.ts';
import { createDeskRouter } from '../../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * A desk in live mode against the simulator (trades on its schedule), its
 * router (outputs checked) as the window reaches it, its log lines as the
 * worker writes them (logDeskEvents), and a receiver of alerts on 127.0.0.1,
 * all on one scaled clock. `transcript()` is every reply, event and log line
 * as text, for a test to scan for what must never appear in them.
 */
export interface AlertDesk {
  readonly desk: Desk;
  readonly router: Router;
  readonly sandbox: Sandbox;
  readonly receiver: WebhookReceiver;
  readonly clock: Clock;
  readonly keychain: ReturnType<typeof memoryKeychain>;
  /** The folder of the desk's profiles (its SQLite files). */
  readonly dataDir: string;
  /** Starts the heartbeat, the trade watcher and the accounts of a desk opened `held`. */
  startServices(): void;
  transcript(): string[];
}

export function alertDeskFixture(): (options: {
  scale: number;
  /** The simulator's options; its trade schedule is off unless asked for. */
  sandbox?: Omit<SandboxOptions, 'clock'>;
  sending?: AlertsDeps['sending'];
  /** The desk talks to the service only once `startServices` is called (webhooks added first). */
  held?: boolean;
}) => Promise<AlertDesk> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async ({ scale, sandbox: sandboxOptions, sending, held }) => {
    const clock = scaledClock(scale);
    const sandbox = await startSandbox({ pastDays: 0, inventorySize: 100, tradeSchedule: false, ...sandboxOptions, clock });
    cleanups.push(() => sandbox.close());
    const receiver = await startWebhookReceiver(clock);
    cleanups.push(() => receiver.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'alert-desk-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const keychain = memoryKeychain();
    await keychain.set('api-key:default', sandbox.apiKey);
    let startServices = () => undefined as void;
    const servicesAfter = new Promise<void>((resolve) => (startServices = resolve));
    const desk = await createDesk({
      dataDir, clock, secrets: keychain, version: 't', initialSettings: { mode: 'live', serviceUrl: sandbox.url }, inventoryUrl: sandbox.url, pricedbUrl: sandbox.pricedb.url,
      ...(sending ? { alertSending: sending } : {}),
      ...(held ? { servicesAfter } : {}),
    });
    cleanups.push(() => desk.close());
    const lines: string[] = [];
    const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ level, message, ...fields }));
    cleanups.push(logDeskEvents(desk.services, { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') }));
    const { router: inner } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
    inner.subscribe((event, payload) => void lines.push(JSON.stringify({ event, payload })));
    const router: Router = {
      ...inner,
      async invoke(channel, input) {
        const result = await inner.invoke(channel, input);
        lines.push(JSON.stringify({ channel, result }));
        return result;
      },
    };
    return { desk, router, sandbox, receiver, clock, keychain, dataDir, startServices: () => startServices(), transcript: () => [...lines] };
  };
}

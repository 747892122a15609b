import { afterEach, describe, expect, it } from 'vitest';
import type { AlertEnvelope } from '../../../src-main/core/alerts/alert.ts';
import { createAlertSender, type AlertSender, type SenderOptions, type SendNews } from '../../../src-main/core/alerts/alert-sender.ts';
import { scaledClock, type Clock } from '../../../src-main/core/clock.ts';
import { MAX_RETRY_AFTER_MS } from '../../../src-shared/rate-wait.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { closedPort } from '../../support/loopback-server.ts';

/**
 * The sender against a real receiver on 127.0.0.1, on a scaled clock: what
 * a receiver asks is honoured (a 429's wait, for the whole queue, bounded),
 * a receiver that fails or never answers is tried again after growing
 * pauses and then given up, and a queue never grows past its bound.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PATH = '/api/webhooks/1/tok-9f8e7d6c5b4a39281706';
let n = 0;
const envelope = (): AlertEnvelope => ({ id: `alert-${(n += 1)}`, at: 0, sandbox: false, alert: { type: 'test' } });

async function setUp(scale: number, options: Partial<SenderOptions> = {}, origin?: string) {
  // The HTTP client loads at a first request: loaded here, so no try's deadline (a few ms of real time) counts it.
  await import('undici/lib/dispatcher/pool.js');
  const clock: Clock = scaledClock(scale);
  const receiver: WebhookReceiver = await startWebhookReceiver(clock);
  cleanups.push(() => receiver.close());
  const target = origin ?? receiver.origin;
  const sender: AlertSender = createAlertSender({
    clock,
    prepare: async (_id, e) => ({ origin: target, path: PATH, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: e.id }), clean: (t) => t }),
    random: () => 0.5,
    // Deadlines are the subject of one test only: the others leave a slow machine room.
    timeoutMs: 10 * 60_000,
    ...options,
  });
  cleanups.push(() => sender.close());
  const news: SendNews[] = [];
  sender.on('news', (item) => news.push(item));
  const bodiesIn = () => receiver.requests.map((r) => (JSON.parse(r.body) as { id: string }).id);
  return { clock, receiver, sender, news, bodiesIn };
}

describe('the alert sender', () => {
  it('honours a 429’s retry_after (Discord’s body, in seconds) for the whole queue: nothing is posted before it is over', async () => {
    const { receiver, sender, news, bodiesIn } = await setUp(20);
    receiver.answer({ status: 429, body: { message: 'You are being rate limited.', retry_after: 2.5, global: false } });
    const [a, b, c] = [envelope(), envelope(), envelope()];
    for (const e of [a, b, c]) sender.enqueue('w1', e);
    await until('three delivered', () => news.filter((x) => x.what === 'delivered').length === 3);
    const [limited, ...after] = receiver.requests;
    expect(bodiesIn()).toEqual([a.id, a.id, b.id, c.id]);
    for (const r of after) expect(r.at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(2_500);
    expect(news.find((x) => x.what === 'retrying')).toMatchObject({ waitMs: 2_500, tries: 1 });
  });

  it('honours Retry-After when the body says nothing, and bounds any wait by MAX_RETRY_AFTER_MS', async () => {
    const { receiver, sender, news } = await setUp(600, { timeoutMs: 3_600_000 });
    receiver.answer({ status: 429, headers: { 'retry-after': '3' } }, { status: 429, body: { retry_after: 36_000 } });
    sender.enqueue('w1', envelope());
    await until('delivered', () => news.some((x) => x.what === 'delivered'), 15_000);
    const [first, second, third] = receiver.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(3_000);
    // Ten hours asked: the wait is the bound (a 429 costs one more request, not the day).
    const waited = (third?.at ?? 0) - (second?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(MAX_RETRY_AFTER_MS);
    expect(waited).toBeLessThan(2 * MAX_RETRY_AFTER_MS);
    expect(news.filter((x) => x.what === 'retrying').map((x) => x.what === 'retrying' && x.waitMs)).toEqual([3_000, MAX_RETRY_AFTER_MS]);
  });

  it('tries a failing receiver again after growing pauses, then gives up and says why', async () => {
    const { receiver, sender, news } = await setUp(50, { maxTries: 4, backoffMs: 2_000 });
    receiver.otherwise({ status: 503, body: 'down for maintenance' });
    sender.enqueue('w1', envelope());
    await until('given up', () => news.some((x) => x.what === 'gave_up'));
    expect(receiver.requests).toHaveLength(4);
    const gaps = receiver.requests.slice(1).map((r, i) => r.at - (receiver.requests[i]?.at ?? 0));
    // 2 s, 4 s, 8 s (random() = 0.5: no jitter either way), each measured from the answer before.
    expect(gaps[0]).toBeGreaterThanOrEqual(2_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(4_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(8_000);
    expect(news.at(-1)).toMatchObject({ what: 'gave_up', tries: 4, status: 503, why: 'the receiver answered 503 Service Unavailable: down for maintenance' });
  });

  it('gives up at once on a refusal that another try will not change (a removed webhook’s 404)', async () => {
    const { receiver, sender, news } = await setUp(50);
    receiver.answer({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    sender.enqueue('w1', envelope());
    await until('given up', () => news.some((x) => x.what === 'gave_up'));
    expect(receiver.requests).toHaveLength(1);
    expect(news.at(-1)).toMatchObject({ what: 'gave_up', tries: 1, why: 'the receiver answered 404 Not Found: Unknown Webhook' });
  });

  it('ends a try that gets no answer at its deadline, one request at a time, and bounds the queue', async () => {
    const { receiver, sender, news } = await setUp(100, { timeoutMs: 10_000, maxTries: 3, queueMax: 5 });
    receiver.otherwise('hang');
    const sent = Array.from({ length: 8 }, envelope);
    for (const e of sent) sender.enqueue('w1', e);
    // The one being sent stays; the oldest waiting made room for the newest.
    expect(news.filter((x) => x.what === 'dropped').map((x) => x.envelope.id)).toEqual([sent[1]?.id, sent[2]?.id, sent[3]?.id]);
    expect(sender.queued('w1')).toBe(5);
    await until('the first given up', () => news.some((x) => x.what === 'gave_up'), 15_000);
    const first = news.find((x) => x.what === 'gave_up');
    expect(first).toMatchObject({ tries: 3, status: null, why: 'no answer within 10 s' });
    // Never two at once: each try began after the one before ended at its deadline.
    const gaps = receiver.requests.slice(1, 3).map((r, i) => r.at - (receiver.requests[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(10_000);
  });

  it('says when a webhook’s queue grows and when an alert leaves it, so Settings shows what waits', async () => {
    const { sender, news } = await setUp(50);
    const lengths: number[] = [];
    sender.on('queue', (id) => lengths.push(sender.queued(id)));
    sender.enqueue('w1', envelope());
    sender.enqueue('w1', envelope());
    await until('both delivered', () => news.filter((x) => x.what === 'delivered').length === 2);
    expect(lengths).toEqual([1, 2, 1, 0]);
  });

  it('says nothing of a try it ended itself: a removed webhook’s, or one under way as the desk closes', async () => {
    const { receiver, sender, news } = await setUp(50);
    receiver.otherwise('hang');
    sender.enqueue('w1', envelope());
    sender.enqueue('w2', envelope());
    await until('both held by the receiver', () => receiver.requests.length === 2);
    await sender.forget('w1');
    await sender.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(news).toEqual([]);
  });

  it('says a receiver that refuses connections in the trader’s words, and tries it again', async () => {
    const port = await closedPort();
    const { sender, news } = await setUp(100, { maxTries: 2 }, `http://127.0.0.1:${port}`);
    sender.enqueue('w1', envelope());
    await until('given up', () => news.some((x) => x.what === 'gave_up'));
    expect(news.map((x) => x.what)).toEqual(['retrying', 'gave_up']);
    expect(news.at(-1)).toMatchObject({ tries: 2, why: 'nothing answers at that address (ECONNREFUSED)' });
  });
});

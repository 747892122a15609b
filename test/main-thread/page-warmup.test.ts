import { describe, expect, it, vi } from 'vitest';
import { createPageWarmup, WARM_FROM_ROWS } from '../../src-main/main-thread/page-warmup.ts';
import { channels, type ChannelOutput, type IpcResult } from '../../src-shared/contract.ts';
import { PLAIN_PARSE, safeParseWarming } from '../../src-shared/plain-parse.ts';
import { call } from '../support/router-call.ts';
import { routerDeskFixture } from '../support/live-desk.ts';

const open = routerDeskFixture('page-warmup-');
type Page = ChannelOutput<'ledger:page'>;

/** A real Listings page of a ledger of `size` listings, as the desk answers it. */
async function realPage(size: number): Promise<Page> {
  const { router, desk } = await open({ scale: 1, sandbox: { seed: 5 } });
  const ws = desk.workspace();
  const account = ws.accounts.snapshot().main?.account_id ?? '';
  ws.repos.listings.upsertMany(Array.from({ length: size }, (_, i) => ({
    asset_id: String(2_000_000 + i), listing_id: `W${i}`, sku: '5021;6', price: 100 + i, promoted: 0 as const, game: '440', account,
  })));
  ws.store.markLedgerChanged();
  return call(router, 'ledger:page', { domain: 'listings', offset: 0, limit: 100 });
}

const answered = (page: Page) => (): Promise<IpcResult<Page>> => Promise.resolve({ ok: true, value: page });
const quiet = () => ({ debug: vi.fn() });

describe("main's check of a Listings page, compiled in a quiet moment", () => {
  it('compiles after the first page of a long ledger once no call is under way, and pages are checked on the compiled path after', async () => {
    const page = await realPage(WARM_FROM_ROWS + 500);
    const schema = channels['ledger:page'].output;
    // The page the compile reads is one the schema reads as valid, so every part of it (the rows too) is compiled.
    expect(schema.safeParse(page).success).toBe(true);
    const parses = vi.spyOn(schema, 'safeParse');
    const log = quiet();
    const warmup = createPageWarmup(log);

    // Another call of the screens is under way when the first page comes back: the compile waits for it.
    let finish: () => void = () => undefined;
    const slow = warmup.around(() => new Promise<string>((resolve) => (finish = () => resolve('slow answer'))));
    expect((await warmup.page(answered(page))).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(parses).not.toHaveBeenCalled();
    finish();
    expect(await slow).toBe('slow answer');
    await warmup.settled();
    expect(parses).toHaveBeenCalledTimes(1);
    expect(log.debug).toHaveBeenCalledWith('Listings page check compiled', { ms: expect.any(Number) });

    // From now on the replies' check takes the compiled path at once (no plain reads left to count).
    parses.mockClear();
    safeParseWarming(schema, page, 10);
    expect(parses).toHaveBeenCalledTimes(1);
    expect(parses.mock.calls[0]?.[1]).not.toBe(PLAIN_PARSE);

    // Once per process: later first pages ask for nothing more.
    parses.mockClear();
    await warmup.page(answered(page));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(parses).not.toHaveBeenCalled();
    parses.mockRestore();
  });

  it('leaves a short ledger and a refused page alone: their pages are few, each checked quickly on the plain path', async () => {
    const page = await realPage(10);
    const log = quiet();
    const warmup = createPageWarmup(log);
    await warmup.page(answered(page));
    await warmup.page(() => Promise.resolve({ ok: false, error: { kind: 'busy', message: 'The store is restarting.' } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await warmup.settled();
    expect(page.total).toBeLessThan(WARM_FROM_ROWS);
    expect(log.debug).not.toHaveBeenCalled();
  });
});

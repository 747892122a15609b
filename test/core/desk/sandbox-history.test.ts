import { describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';
import { deskTestScope } from './desk-fixture.ts';

const { opened, tempDir } = deskTestScope('desk-history-');
const DAY = 86_400_000;

async function desk(dataDir: string, pastDays: number): Promise<Desk> {
  const d = await createDesk({ dataDir, secrets: memoryKeychain(), version: 'test', openSandbox: (clock) => startSandbox({ clock, seed: 4, pastDays }) });
  opened.push(d);
  return d;
}

const year = () => ({ from: Date.now() - 30 * DAY, to: Date.now() + DAY, account: null });

describe('sandbox mode and History', () => {
  it('opens a new profile on the simulator\'s past fortnight, once, and then records what the watcher sees', async () => {
    const dataDir = tempDir();
    const first = await desk(dataDir, 14);
    const filled = first.workspace().history.summary(year());
    expect(filled.sales.count).toBeGreaterThan(50);
    expect(filled.days.filter((d) => d.sales.count + d.purchases.count > 0).length).toBeGreaterThanOrEqual(14);
    await first.workspace().trades.checkNow();
    await until('the live trades recorded', () => first.workspace().history.summary(year()).pending > 0);
    const filledAt = first.workspace().history.repo.meta('past_filled_at');
    expect(filledAt).not.toBeNull();
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    // Opened again, with a simulator whose past lies elsewhere in time: nothing is filled twice.
    const again = await desk(dataDir, 14);
    expect(again.workspace().history.repo.meta('past_filled_at')).toBe(filledAt);
    // The fortnight is not filled again (that would double its sales); a live trade the watcher saw meanwhile may
    // have completed since the first reading, so a few more sales may show.
    const sales = again.workspace().history.summary(year()).sales;
    expect(sales.count).toBeGreaterThanOrEqual(filled.sales.count);
    expect(sales.count).toBeLessThan(filled.sales.count + 5);
  });

  it('leaves History empty with a quiet simulator (pastDays 0)', async () => {
    const d = await desk(tempDir(), 0);
    expect(d.workspace().history.repo.counts()).toEqual({ trades: 0, readings: 0 });
  });
});

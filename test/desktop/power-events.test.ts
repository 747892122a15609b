import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { net, powerMonitor, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { wirePowerEvents } = await import('../../src-main/main-thread/desktop/power-events.ts');

type Job = () => Promise<void>;
let beatNow: Mock<Job>;
let checkTradesNow: Mock<Job>;
beforeEach(() => {
  resetFakeElectron();
  vi.useFakeTimers();
  beatNow = vi.fn<Job>(async () => undefined);
  checkTradesNow = vi.fn<Job>(async () => undefined);
});
afterEach(() => vi.useRealTimers());

const wire = (over: Partial<Parameters<typeof wirePowerEvents>[0]> = {}) =>
  wirePowerEvents({ beatNow, checkTradesNow, now: () => Date.now(), ...over });

describe('wirePowerEvents', () => {
  it('beats and checks trades at once on resume', () => {
    wire();
    powerMonitor.emit('resume');
    expect(beatNow).toHaveBeenCalledOnce();
    expect(checkTradesNow).toHaveBeenCalledOnce();
  });

  it('waits for the network when resuming offline, then wakes on reconnection', async () => {
    net.isOnline.mockReturnValue(false);
    wire({ onlinePollMs: 1_000 });
    powerMonitor.emit('resume');
    expect(beatNow).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(beatNow).not.toHaveBeenCalled();
    net.isOnline.mockReturnValue(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(beatNow).toHaveBeenCalledOnce();
    expect(checkTradesNow).toHaveBeenCalledOnce();
  });

  it('reports connectivity at start and on each change, for the offline banner', async () => {
    const seen: boolean[] = [];
    net.isOnline.mockReturnValue(true);
    wire({ onlinePollMs: 1_000, onConnectivity: (online) => seen.push(online) });
    net.isOnline.mockReturnValue(false);
    await vi.advanceTimersByTimeAsync(3_000);
    net.isOnline.mockReturnValue(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([true, false, true]);
  });

  it('ignores a flapping network within the minimum gap', async () => {
    wire({ onlinePollMs: 1_000, minGapMs: 30_000 });
    for (let i = 0; i < 4; i++) {
      net.isOnline.mockReturnValue(false);
      await vi.advanceTimersByTimeAsync(1_000);
      net.isOnline.mockReturnValue(true);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(beatNow).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(30_000);
    powerMonitor.emit('resume');
    expect(beatNow).toHaveBeenCalledTimes(2);
  });

  it('takes an online report from the renderer, and reports failures without throwing', async () => {
    const onError = vi.fn();
    beatNow.mockRejectedValueOnce(new Error('network down'));
    checkTradesNow.mockImplementationOnce(() => { throw new Error('watcher stopped'); });
    const events = wire({ onError });
    events.reportOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(onError.mock.calls.map(([e]) => (e as Error).message).sort()).toEqual(['network down', 'watcher stopped']);
  });

  it('stops listening when disposed', async () => {
    const events = wire({ onlinePollMs: 1_000 });
    events.dispose();
    powerMonitor.emit('resume');
    net.isOnline.mockReturnValue(false);
    await vi.advanceTimersByTimeAsync(1_000);
    net.isOnline.mockReturnValue(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(beatNow).not.toHaveBeenCalled();
  });
});

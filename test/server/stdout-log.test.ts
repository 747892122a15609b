import { describe, expect, it } from 'vitest';
import { openStdoutLog } from '../../src-main/main-thread/server/stdout-log.ts';

describe('the server\'s log on standard output', () => {
  it('writes one JSON line per event, scrubbed of the key, and keeps the newest for diagnostics', () => {
    const written: string[] = [];
    const log = openStdoutLog({ write: (line) => void written.push(line), keepBytes: 400 });
    const key = 'sk-live-0123456789abcdefghij';
    log.addSecret(key);
    log.info('heartbeat', { status: 'active' });
    log.warn(`the service said: bad key ${key}`, { echoed: encodeURIComponent(key), apiKey: key });
    log.debug('not written at info');
    expect(written).toHaveLength(2);
    for (const line of written) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line).not.toContain(key);
      expect(line).not.toContain(key.slice(5, 20));
    }
    expect(JSON.parse(written[0] as string)).toMatchObject({ level: 'info', msg: 'heartbeat', status: 'active' });
    for (let i = 0; i < 20; i++) log.info('filler', { i });
    const recent = log.recent(10_000);
    expect(recent.join('\n').length).toBeLessThanOrEqual(400);
    expect(JSON.parse(recent.at(-1) as string)).toMatchObject({ i: 19 });
  });
});

import { describe, expect, it } from 'vitest';
import { compareVersions, downgradeRefusal, feedRequestRefusal, UpdateRefused } from '../../../src-main/core/shell/update-policy.ts';

describe('compareVersions', () => {
  it('orders versions as semantic versioning does', () => {
    const ordered = ['0.0.9', '0.1.0-alpha', '0.1.0-alpha.1', '0.1.0-alpha.beta', '0.1.0-beta.2', '0.1.0-beta.11', '0.1.0-rc.1', '0.1.0', '0.1.1', '0.10.0', '1.0.0'];
    for (let i = 0; i < ordered.length - 1; i++) {
      expect(compareVersions(ordered[i] as string, ordered[i + 1] as string), `${ordered[i]} < ${ordered[i + 1]}`).toBeLessThan(0);
      expect(compareVersions(ordered[i + 1] as string, ordered[i] as string)).toBeGreaterThan(0);
    }
    expect(compareVersions('1.2.3', 'v1.2.3+build.5')).toBe(0);
    expect(compareVersions('1.2', '1.2.0')).toBeNull();
  });
});

describe('downgradeRefusal', () => {
  it('lets a newer version through and refuses an older, the same, or no version', () => {
    expect(downgradeRefusal('0.1.0', '0.2.0')).toBeNull();
    expect(downgradeRefusal('0.1.0', '0.1.1-beta.1')).toBeNull();
    const older = downgradeRefusal('0.2.0', '0.1.9');
    expect(older).toBeInstanceOf(UpdateRefused);
    expect(older).toMatchObject({ version: '0.1.9', detail: 'downgrade from 0.2.0 to 0.1.9' });
    expect(older?.sentence).toMatch(/^it is older than the installed version 0\.2\.0/);
    expect(downgradeRefusal('0.2.0', '0.2.0-rc.1')?.detail).toBe('downgrade from 0.2.0 to 0.2.0-rc.1');
    expect(downgradeRefusal('0.2.0', '0.2.0')?.sentence).toMatch(/^it is the version already installed/);
    expect(downgradeRefusal('0.2.0', 'latest')?.sentence).toBe('the update feed did not give a valid version number.');
  });
});

describe('feedRequestRefusal', () => {
  const feed = 'https://updates.example.io/desk/';
  it('allows https on the feed\'s host', () => {
    expect(feedRequestRefusal(feed, 'https://updates.example.io/desk/latest.yml?noCache=1')).toBeNull();
    expect(feedRequestRefusal(feed, 'https://updates.example.io/elsewhere/file.exe')).toBeNull();
  });
  it('refuses another host, another port, or plain http on the same host', () => {
    expect(feedRequestRefusal(feed, 'https://cdn.example.io/desk/app.exe')?.detail).toBe("request to https://cdn.example.io, off the feed's host updates.example.io");
    expect(feedRequestRefusal(feed, 'https://updates.example.io:8443/desk/app.exe')?.detail).toMatch(/off the feed's host/);
    const plain = feedRequestRefusal(feed, 'http://updates.example.io/desk/app.exe');
    expect(plain?.detail).toBe('request to http://updates.example.io, off https');
    expect(plain?.sentence).toBe('it was to come over an unencrypted connection; updates come only over https.');
    expect(feedRequestRefusal(feed, 'not a url')?.detail).toMatch(/not an address/);
  });
  it('lets a feed on loopback (a test\'s) use its own plain http, and nothing else', () => {
    const local = 'http://127.0.0.1:4567/';
    expect(feedRequestRefusal(local, 'http://127.0.0.1:4567/app.AppImage')).toBeNull();
    expect(feedRequestRefusal(local, 'http://localhost:4567/app.AppImage')?.detail).toMatch(/off the feed's host/);
    expect(feedRequestRefusal('http://updates.example.io/', 'http://updates.example.io/a')?.detail).toMatch(/off https/);
  });
});

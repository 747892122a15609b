import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, parseServeArgs, transportOf, UsageError } from '../../src-main/main-thread/server/serve-options.ts';

describe('marketplace-desk serve\'s options', () => {
  it('listens on this machine only by default, in systemd\'s state folder when it has one', () => {
    expect(parseServeArgs([], { STATE_DIRECTORY: '/var/lib/marketplace-desk' })).toMatchObject({
      host: '127.0.0.1', port: DEFAULT_PORT, profileDir: '/var/lib/marketplace-desk', tls: null, trustedProxies: [], insecureRemote: false, logLevel: 'info',
    });
    expect(parseServeArgs([], { HOME: '/home/t', XDG_DATA_HOME: '/home/t/.data' })).toMatchObject({ profileDir: '/home/t/.data/marketplace-desk' });
    expect(parseServeArgs(['--help'], {})).toBe('help');
  });

  it('refuses to listen beyond this machine in the clear unless told, saying what to do', () => {
    expect(() => parseServeArgs(['--host', '0.0.0.0'], {})).toThrow(UsageError);
    expect(() => parseServeArgs(['--host', '192.168.1.20'], {})).toThrow(/--tls-cert and --tls-key.*--trusted-proxy.*--insecure-remote/);
    expect(transportOf({ host: '0.0.0.0', tls: null, trustedProxies: [], insecureRemote: true })).toBe('insecure');
    expect(transportOf({ host: '0.0.0.0', tls: { certFile: 'c', keyFile: 'k' }, trustedProxies: [], insecureRemote: false })).toBe('tls');
    expect(transportOf({ host: '0.0.0.0', tls: null, trustedProxies: ['10.0.0.1'], insecureRemote: false })).toBe('proxy');
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) expect(transportOf({ host, tls: null, trustedProxies: [], insecureRemote: false }), host).toBe('loopback');
  });

  it('says what is wrong with a bad option', () => {
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow('--port must be a whole number from 0 to 65535, not "70000".');
    expect(() => parseServeArgs(['--tls-cert', 'c.pem'], {})).toThrow('--tls-cert and --tls-key go together');
    expect(() => parseServeArgs(['--trusted-proxy', 'proxy.lan'], {})).toThrow('--trusted-proxy takes the proxy\'s IP address');
    expect(() => parseServeArgs(['--log-level', 'loud'], {})).toThrow('--log-level must be one of debug, info, warn, error.');
    expect(() => parseServeArgs(['--colour'], {})).toThrow(/Unknown option '--colour'[\s\S]*usage: marketplace-desk serve/);
  });
});

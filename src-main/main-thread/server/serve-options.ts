import { homedir } from 'node:os';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ServerTransport } from '../../../src-shared/access.ts';
import { LOG_LEVELS, type LogLevel } from '../../core/shell/log-levels.ts';

/**
 * `marketplace-desk serve`'s options, read once at start. Binding beyond
 * this machine is refused unless the traffic is encrypted (TLS served here,
 * or a reverse proxy the trader names) or the trader says, with
 * `--insecure-remote`, that they accept the risk: a password and a session
 * cookie sent in the clear are anyone's on the network.
 */

export const DEFAULT_PORT = 8790;

export const USAGE = `usage: marketplace-desk serve [options]
  --host <address>         where to listen (default 127.0.0.1: this machine only)
  --port <n>               default ${DEFAULT_PORT}; 0 picks a free one
  --profile-dir <folder>   the desk's data (default $STATE_DIRECTORY, else ~/.local/share/marketplace-desk)
  --tls-cert <file>        serve HTTPS with this certificate (PEM) ...
  --tls-key <file>         ... and this private key (PEM)
  --trusted-proxy <addr>   a reverse proxy in front (its address; repeat for more): it terminates TLS
  --allowed-host <name>    a name the desk answers to besides localhost and the addresses it binds (repeatable)
  --insecure-remote        listen beyond this machine without TLS (every screen then warns)
  --log-level <level>      debug, info (default), warn, error`;

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly profileDir: string;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly trustedProxies: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly insecureRemote: boolean;
  readonly logLevel: LogLevel;
}

/** A command line that cannot start the server, in a sentence that says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ServeOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'profile-dir': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'trusted-proxy': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'insecure-remote': { type: 'boolean' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (values.help) return 'help';
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
  const logLevel = values['log-level'] ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('--tls-cert and --tls-key go together: give both, or neither.');
  const trustedProxies = values['trusted-proxy'] ?? [];
  for (const proxy of trustedProxies) {
    if (isIP(proxy) === 0) throw new UsageError(`--trusted-proxy takes the proxy's IP address (as the desk sees its connections), not "${proxy}".`);
  }
  const options: ServeOptions = {
    host: values.host ?? '127.0.0.1',
    port,
    profileDir: resolve(values['profile-dir'] ?? defaultProfileDir(env)),
    tls: certFile !== undefined && keyFile !== undefined ? { certFile: resolve(certFile), keyFile: resolve(keyFile) } : null,
    trustedProxies,
    allowedHosts: (values['allowed-host'] ?? []).map((h) => h.toLowerCase()),
    insecureRemote: values['insecure-remote'] ?? false,
    logLevel: logLevel as LogLevel,
  };
  transportOf(options);
  return options;
}

/** systemd's StateDirectory when it runs the desk, else the user's data folder. */
function defaultProfileDir(env: NodeJS.ProcessEnv): string {
  const state = env.STATE_DIRECTORY?.split(':')[0];
  if (state) return state;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'marketplace-desk');
}

/** Whether `host` is reachable from this machine alone. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * How the server is reached, or a refusal when it would listen beyond this
 * machine in the clear without the trader saying so.
 */
export function transportOf(options: Pick<ServeOptions, 'host' | 'tls' | 'trustedProxies' | 'insecureRemote'>): ServerTransport {
  if (options.tls) return 'tls';
  if (options.trustedProxies.length > 0) return 'proxy';
  if (isLoopback(options.host)) return 'loopback';
  if (options.insecureRemote) return 'insecure';
  throw new UsageError(
    `Refusing to listen on ${options.host} without encryption: anyone on the network could read the password and take the session. `
    + 'Give --tls-cert and --tls-key, or put the desk behind a reverse proxy and name it with --trusted-proxy, '
    + 'or pass --insecure-remote to accept the risk (every screen will then say so).',
  );
}

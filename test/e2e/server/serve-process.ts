import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The real server, `out/main/serve.cjs` as `npm run serve` starts it, run as
 * a child process on a profile folder of the test's. Its log lines (JSON on
 * standard output) are kept, to find the URL and the setup link and to scan
 * for secrets.
 */
export const SERVE_ENTRY = fileURLToPath(new URL('../../../out/main/serve.cjs', import.meta.url));
/** The launcher every real start goes through (npm run serve, the package's bin, systemd, Docker). */
export const SERVE_LAUNCHER = fileURLToPath(new URL('../../../bin/marketplace-desk.js', import.meta.url));

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** Every line the process wrote, standard output and error, in order. */
  lines(): readonly string[];
  /** The one-time setup link the first start printed, or null. */
  setupLink(): string | null;
  /** Sends `signal` and waits for the exit: its code (null when a signal ended it) and the signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServeOptions {
  readonly profileDir: string;
  readonly args?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Test settings forced on the desk (server-process.ts's MARKETPLACE_DESK_TEST_CONFIG). */
  readonly testConfig?: object;
  /** Node's own flags before the entry (the benchmark loads its probe with `--import`). */
  readonly nodeArgs?: readonly string[];
  /**
   * Start it through the launcher, executed as a file (its first line gives
   * Node's flags and environment), as a real start does; `nodeArgs` then go
   * in NODE_OPTIONS. Default: the built entry run by this Node.
   */
  readonly throughLauncher?: boolean;
}

/** Parsed log lines of the server (JSON), skipping any that are not. */
export function logEntries(lines: readonly string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of lines) {
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not a log line (a usage message on standard error).
    }
  }
  return out;
}

/** Runs the server to its end (a refusal to start): its exit code and what it wrote. */
export async function runServe(options: ServeOptions): Promise<{ code: number | null; lines: string[] }> {
  const child = spawnServe(options);
  const lines: string[] = [];
  collect(child, lines);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, lines };
}

function spawnServe(options: ServeOptions): ChildProcess {
  const args = ['--port', '0', '--profile-dir', options.profileDir, ...(options.args ?? [])];
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, ...(options.testConfig ? { MARKETPLACE_DESK_TEST_CONFIG: JSON.stringify(options.testConfig) } : {}) };
  if (!options.throughLauncher) return spawn(process.execPath, [...(options.nodeArgs ?? []), SERVE_ENTRY, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The launcher finds `node` on the PATH: this one first.
  const nodeOptions = [env.NODE_OPTIONS ?? '', ...(options.nodeArgs ?? []).map((a) => JSON.stringify(a))].join(' ').trim();
  return spawn(SERVE_LAUNCHER, ['serve', ...args], {
    env: { ...env, PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess, lines: string[], onLine?: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      onLine?.(line);
    });
  }
}

export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const child = spawnServe(options);
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    collect(child, lines, (line) => {
      const entry = logEntries([line])[0];
      if (entry?.msg === 'listening' && typeof entry.url === 'string') resolve(entry.url);
    });
    void exited.then(({ code }) => reject(new Error(`the server ended (code ${code}) before it listened:\n${lines.join('\n')}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    lines: () => lines,
    setupLink() {
      const entry = logEntries(lines).find((e) => typeof e.setupLink === 'string');
      return (entry?.setupLink as string | undefined) ?? null;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

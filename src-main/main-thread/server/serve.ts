/**
 * `marketplace-desk serve` (`npm run serve`): the desk as a plain Node
 * process, for automation that must outlive a sleeping laptop. Its options
 * are in serve-options.ts; the composition in server-process.ts. SIGTERM
 * and SIGINT stop it cleanly (batches in flight journaled, the store
 * closed); a second one ends it at once.
 *
 * This entry imports only what reads the options and starts the data worker:
 * the worker boots and loads the desk's code on its own thread while this
 * one loads the server's (each about half of a start), and the rest is
 * loaded after the worker is on its way.
 */
import { spawnAhead } from '../desk-worker-spawn.ts';
import { privateDir } from './private-file.ts';
import { parseServeArgs, UsageError, USAGE, type ServeOptions } from './serve-options.ts';
import { serverWorkerSpawner } from './server-worker.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseServeArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const mainDir = import.meta.dirname;
  const spawn = workerAhead(options, mainDir);
  const [{ openStdoutLog }, { startServer }, { KeyFileError }] = await Promise.all([
    import('./stdout-log.ts'), import('./server-process.ts'), import('./key-store.ts'),
  ]);
  const log = openStdoutLog({ level: options.logLevel });
  const onProcessError = (error: unknown) => log.error('unhandled failure', { error });
  process.on('uncaughtExceptionMonitor', onProcessError);
  process.on('unhandledRejection', onProcessError);
  let server;
  try {
    server = await startServer({ options, log, mainDir, ...(spawn ? { spawn } : {}) });
  } catch (error) {
    // A refusal the trader can act on is said as it is; anything else with its error.
    if (error instanceof KeyFileError || error instanceof UsageError) log.error(error.message);
    else log.error('could not start', { error });
    process.exit(1);
  }
  const running = server;
  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      log.warn('stopping at once', { signal });
      process.exit(1);
    }
    log.info('asked to stop', { signal });
    running.stop().then(() => process.exit(0), (error: unknown) => {
      log.error('stopping failed', { error });
      process.exit(1);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The data worker, started now; null when the profile folder cannot be made
 * (the start then fails in startServer, which says why in the log).
 */
function workerAhead(options: ServeOptions, mainDir: string) {
  try {
    // The folder is made private before the worker writes its compiled code in it.
    return spawnAhead(serverWorkerSpawner({ mainDir, profileDir: privateDir(options.profileDir) }));
  } catch {
    return null;
  }
}

// main() ends the process itself when the start fails; the build is CommonJS, which has no top-level await.
void main();

/**
 * `marketplace-desk serve` (`npm run serve`): the desk as a plain Node
 * process, for automation that must outlive a sleeping laptop. Its options
 * are in serve-options.ts; the composition in server-process.ts. SIGTERM
 * and SIGINT stop it cleanly (batches in flight journaled, the store
 * closed); a second one ends it at once.
 */
import { KeyFileError } from './key-store.ts';
import { openStdoutLog } from './stdout-log.ts';
import { parseServeArgs, UsageError, USAGE } from './serve-options.ts';
import { startServer } from './server-process.ts';

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
  const log = openStdoutLog({ level: options.logLevel });
  const onProcessError = (error: unknown) => log.error('unhandled failure', { error });
  process.on('uncaughtExceptionMonitor', onProcessError);
  process.on('unhandledRejection', onProcessError);
  let server;
  try {
    server = await startServer({ options, log, mainDir: import.meta.dirname });
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

await main();

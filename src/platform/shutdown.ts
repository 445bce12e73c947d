import type { Logger } from './logger';

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits. Later signals are ignored (a terminal's Ctrl-C
 * and a supervisor's SIGTERM often arrive together); the timeout forces the exit if stopping hangs.
 */
export function onShutdownSignal(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out: exiting');
      process.exit(1);
    }, timeoutMs + 5000);
    force.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

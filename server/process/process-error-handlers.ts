import type { Logger } from 'pino';
import { endLog } from '../logger';

/**
 * A promise rejection nobody handled is a bug to fix, not a reason to drop every user's in-flight request: it is
 * logged and the process carries on. An uncaught exception leaves state unknown, so it is logged and the process
 * exits (the supervisor restarts it). Returns a function that removes the handlers (tests).
 */
export function installProcessErrorHandlers(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  };
  const onException = (error: Error) => {
    logger.fatal({ err: error }, 'uncaught exception: exiting');
    // The line that says why must reach the log: the exit waits for it (endLog), briefly.
    void endLog(logger).then(() => exit(1));
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

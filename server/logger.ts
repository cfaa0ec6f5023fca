import pino, { type Logger } from 'pino';

/** The server's JSON logger on stdout; silent under NODE_ENV=test. */
export function createLogger(nodeEnv: string, level?: string): Logger {
  return pino({ level: level ?? (nodeEnv === 'test' ? 'silent' : 'info') });
}

import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_CENSOR, LOG_REDACT_PATHS } from './hardening/log-redaction';

/**
 * The server's JSON logger (one object per line) on stdout, or on `destination` (tests); silent under NODE_ENV=test.
 * Passwords, cookies and Authorization headers are redacted wherever they appear.
 */
export function createLogger(nodeEnv: string, level?: string, destination?: DestinationStream): Logger {
  const options = {
    level: level ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    redact: { paths: [...LOG_REDACT_PATHS], censor: LOG_CENSOR },
  };
  return destination ? pino(options, destination) : pino(options);
}

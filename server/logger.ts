import pino, { type DestinationStream, type Logger } from 'pino';

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

/**
 * Values that never reach the logs: credentials and the cookies that carry sessions, wherever a serializer or a
 * careless `log.info({ body })` puts them. `req`/`res` are pino-http's serialized request and response.
 */
export const LOG_REDACT_PATHS: readonly string[] = Object.freeze([
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'password',
  '*.password',
  '*.*.password',
  'newPassword',
  '*.newPassword',
  'secret',
  '*.secret',
]);

/** What a redacted value is replaced with. */
export const LOG_CENSOR = '[redacted]';

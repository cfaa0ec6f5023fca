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

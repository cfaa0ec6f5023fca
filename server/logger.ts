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

/** The part of pino's stdout stream (sonic-boom) that ending the log needs. */
interface EndableStream {
  end(): void;
  once(event: 'close', listener: () => void): unknown;
  destroyed: boolean;
  write(data: string): boolean;
}

function isEndable(stream: unknown): stream is EndableStream {
  const candidate = stream as Partial<EndableStream> | null;
  return typeof candidate?.end === 'function' && typeof candidate.once === 'function' && 'destroyed' in candidate;
}

/**
 * Resolves once every line logged so far is written and the log closed (at most `withinMs` later), for the moment
 * before the process exits. stdout is written asynchronously: exiting right after the last line wrote the lines still
 * queued at once, while the one being written was still on its way, so the log ended with lines out of order
 * (`stopped` before `shutting down`) or without them. A line logged after it is dropped, by every logger on the stream.
 */
export function endLog(logger: Logger, withinMs = 2000): Promise<void> {
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!isEndable(stream) || stream.destroyed) {
    logger.flush();
    return Promise.resolve();
  }
  // Once closed, a line logged (a request ending, a second exception) is dropped: the stream would throw.
  const dropLater = () => {
    stream.write = () => true;
  };
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, withinMs);
    stream.once('close', () => {
      dropLater();
      clearTimeout(timer);
      resolve();
    });
    stream.end();
    if (stream.destroyed) dropLater();
  });
}

/** Names of values that are secrets wherever they appear: in a logged object, a body, a query string. */
export const SECRET_KEYS: readonly string[] = Object.freeze(['password', 'newPassword', 'secret']);

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
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
]);

const SECRET_QUERY_KEYS: ReadonlySet<string> = new Set(SECRET_KEYS.map((key) => key.toLowerCase()));

/**
 * A URL as it may be logged: the value of every query parameter named like a secret (`?password=…`, in any case,
 * also when the name is percent-encoded) replaced with the censor, everything else as received.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  return `${url.slice(0, query)}?${redactQuery(url.slice(query + 1))}`;
}

/** A query string (without its `?`) as redactUrl shows it: traces carry it so too (http-request-attributes.ts). */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawKey = equals === -1 ? pair : pair.slice(0, equals);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is logged as received; it names no known secret.
      }
      return SECRET_QUERY_KEYS.has(key.trim().toLowerCase()) ? `${rawKey}=${LOG_CENSOR}` : pair;
    })
    .join('&');
}

/** What a redacted value is replaced with. */
export const LOG_CENSOR = '[redacted]';

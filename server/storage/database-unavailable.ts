/** Network failures of a connection to the database server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
]);
/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve now: shutting down or starting (57P01-57P03), a statement
 * cancelled by the statement timeout (57014), too many connections (53300); class 08 is "connection exception".
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
/** What pg says, without a code, when a connection broke or never came up in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /connection error and is not queryable/,
];

/**
 * Whether an error means the database could not answer (PostgreSQL down, restarting, unreachable or too slow)
 * rather than that the request or the query was wrong: such a request may succeed once it is back, so it is
 * answered 503 `unavailable`, as /readyz says meanwhile.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // AggregateError (every address of a host refused) and wrapped errors.
  const { errors, cause } = error as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/**
 * What a database-unavailable error says went wrong, for a log line: its message (`connect ECONNREFUSED
 * 10.0.0.5:5432`), or those of the attempts it gathers (an AggregateError, every address of a host refused, has none
 * of its own), or its cause's.
 */
export function unavailableReason(error: unknown): string {
  if (error === null || typeof error !== 'object') return String(error);
  const { message, code, errors, cause } = error as {
    message?: unknown;
    code?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof message === 'string' && message !== '') return message;
  if (Array.isArray(errors) && errors.length > 0) return errors.map(unavailableReason).join('; ');
  if (cause !== undefined && cause !== error) return unavailableReason(cause);
  return typeof code === 'string' ? code : 'no reason given';
}

import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { ERROR_MESSAGES, ERROR_STATUS, payloadTooLargeMessage, type ErrorCode } from '../../shared';
import { isDatabaseUnavailable, unavailableReason } from '../storage/database-unavailable';
import { HttpError } from './http-error';
import { EMPTY_BODY_TYPE, JSON_BODY_MESSAGES, NOT_UTF8_BODY_TYPE } from './require-json-body';

/**
 * Where the error handler leaves the code it answered with (`res.locals`), for what counts answers by more than their
 * status: two sign-in refusals share 403 (sign-in-metrics.ts).
 */
export const ANSWERED_ERROR_CODE = 'answeredErrorCode';

/**
 * The one error handler, registered last: every error reaches the client as `{ error: { code, message } }` with the
 * status of shared/errors.ts. Client errors keep their message; anything unexpected is logged here with its stack
 * and answered as `internal`, so no stack trace or internal detail leaves the server. A database that does not answer
 * is a 503 `unavailable`, logged as a warning of one line (the request and the reason), as is a 5xx the server chose
 * to answer (an HttpError).
 */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const httpError = toHttpError(error);
    if (httpError.code === 'unavailable' && isDatabaseUnavailable(error)) {
      // One line, no stack: during an outage every request that needs the database fails alike, and the outage
      // itself is told once each way (PostgreSQL stopped answering, answers again: postgres-outage-log.ts).
      const reason = unavailableReason(error);
      (req.log ?? logger).warn(
        { method: req.method, url: req.originalUrl, reason },
        databaseUnavailableMessage(req.method, req.originalUrl, reason),
      );
    } else if (error instanceof HttpError && httpError.status >= 500) {
      // An answer the server chose (the session store or the sign-in counters not answering, a record too busy to
      // save): one line, no stack. Its cause is logged where it was met, and the stack of the HttpError made there,
      // on every request of a Redis outage, said nothing more.
      (req.log ?? logger).warn(
        { method: req.method, url: req.originalUrl, code: httpError.code },
        `${req.method} ${req.originalUrl} answered ${httpError.status}: ${httpError.message}`,
      );
    } else if (httpError.status >= 500) {
      (req.log ?? logger).error({ err: error, method: req.method, url: req.originalUrl }, 'request failed');
    }
    if (res.headersSent) {
      // Too late to answer with JSON; let Node close the connection.
      next(error);
      return;
    }
    const retryAfter = (httpError as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    res.locals[ANSWERED_ERROR_CODE] = httpError.code;
    res.status(httpError.status).json(httpError.toBody());
  };
}

/** The log line of a request answered 503 because the database did not answer. */
export function databaseUnavailableMessage(method: string, url: string, reason: string): string {
  return `${method} ${url} answered 503: the database is unavailable (${reason})`;
}

/** Errors raised by the body parser (http-errors with a `type`), mapped to the codes of shared/errors.ts. */
const BODY_PARSER_ERRORS: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  'entity.too.large': { code: 'payload_too_large', message: ERROR_MESSAGES.payloadTooLarge },
  'entity.parse.failed': { code: 'invalid_request', message: ERROR_MESSAGES.malformedJson },
  // requireJsonBody refuses these before the parser reads anything; the same answers if the parser finds them first.
  'encoding.unsupported': { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCoding },
  'charset.unsupported': { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCharset },
  [NOT_UTF8_BODY_TYPE]: { code: 'invalid_request', message: JSON_BODY_MESSAGES.notUtf8 },
  [EMPTY_BODY_TYPE]: { code: 'invalid_request', message: JSON_BODY_MESSAGES.empty },
  'request.aborted': { code: 'invalid_request', message: 'Request body was not received completely.' },
  'request.size.invalid': { code: 'invalid_request', message: 'Request body does not match its Content-Length.' },
};

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error !== null && typeof error === 'object') {
    const { type, status } = error as { type?: unknown; status?: unknown };
    const known = typeof type === 'string' ? BODY_PARSER_ERRORS[type] : undefined;
    if (known) {
      // Valid JSON that is neither an object nor an array (`null`, `"text"`, `3`): the parser's strict mode refuses
      // it as a syntax error, which would tell the client its JSON is broken when it is only of the wrong kind.
      if (type === 'entity.parse.failed' && parsesAsJson((error as { body?: unknown }).body)) {
        return new HttpError('invalid_request', ERROR_MESSAGES.jsonNotObject);
      }
      if (type === 'entity.too.large') return new HttpError(known.code, tooLargeMessage(error));
      return new HttpError(known.code, known.message);
    }
    // The router could not decode a path parameter (`%E0%A4%A`): say so, not only that the request was refused.
    if (error instanceof URIError && status === 400)
      return new HttpError('invalid_request', ERROR_MESSAGES.undecodablePath);
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = codeForStatus(status);
      if (code) return new HttpError(code, defaultMessage(code));
    }
    // PostgreSQL down or restarting: the request may succeed in a moment (and /readyz says 503 meanwhile).
    if (isDatabaseUnavailable(error)) return new HttpError('unavailable', ERROR_MESSAGES.unavailable);
  }
  return new HttpError('internal', ERROR_MESSAGES.internal);
}

function codeForStatus(status: number): ErrorCode | undefined {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status);
}

function defaultMessage(code: ErrorCode): string {
  switch (code) {
    case 'payload_too_large':
      return ERROR_MESSAGES.payloadTooLarge;
    case 'unsupported_media_type':
      return ERROR_MESSAGES.unsupportedMediaType;
    case 'not_found':
      return ERROR_MESSAGES.notFound;
    case 'unauthenticated':
      return ERROR_MESSAGES.unauthenticated;
    case 'request_timeout':
      return ERROR_MESSAGES.requestTimeout;
    case 'headers_too_large':
      return ERROR_MESSAGES.headersTooLarge;
    default:
      return 'The request was refused.';
  }
}

/**
 * The 413 of a body over its route's limit, naming the limit and, when its Content-Length said it, the body's size:
 * "too large" alone leaves the client guessing how much to cut.
 */
function tooLargeMessage(error: object): string {
  const { limit, length } = error as { limit?: unknown; length?: unknown };
  if (typeof limit !== 'number') return ERROR_MESSAGES.payloadTooLarge;
  return payloadTooLargeMessage(limit, typeof length === 'number' ? length : undefined);
}

function parsesAsJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

import { ERROR_MESSAGES, ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../shared';

/**
 * An error meant for the client: its code, status (from shared/errors.ts) and message go out as the JSON error
 * body. Anything else that reaches the error handler is answered as `internal`, without details.
 */
export class HttpError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.fields) body.error.fields = { ...this.fields };
    return body;
  }

  static invalidRequest(message: string, fields?: Record<string, string>): HttpError {
    return new HttpError('invalid_request', message, fields);
  }

  static unauthenticated(): HttpError {
    return new HttpError('unauthenticated', ERROR_MESSAGES.unauthenticated);
  }

  static notFound(message: string = ERROR_MESSAGES.notFound): HttpError {
    return new HttpError('not_found', message);
  }
}

import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { Duplex } from 'node:stream';
import { ERROR_MESSAGES, ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../shared';

/** What a client is told of a request Node could not read, by the error Node's HTTP/1.1 parser raised. */
const UNREADABLE: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: ERROR_MESSAGES.headersTooLarge },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: ERROR_MESSAGES.requestTimeout },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'payload_too_large', message: ERROR_MESSAGES.payloadTooLarge },
};
const NOT_HTTP = { code: 'invalid_request', message: ERROR_MESSAGES.notHttp } as const;

/**
 * The whole answer, as bytes for the socket: no Express, no response object, the connection closed after it, with
 * `headers` (every JSON answer's: the app's API_SECURITY_HEADERS, given by who starts the server).
 */
function rawAnswer(error: NodeJS.ErrnoException, headers: Readonly<Record<string, string>>): string {
  const { code, message } = UNREADABLE[error.code ?? ''] ?? NOT_HTTP;
  const status = ERROR_STATUS[code];
  const body: ErrorBody = { error: { code, message } };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

/**
 * A request Node's HTTP/1.1 server cannot read (headers over its limit, a request past HEADERS_TIMEOUT_MS or
 * REQUEST_TIMEOUT_MS, bytes that are not HTTP) is answered before any route runs; Node's own answer is a bare status
 * line. This one has the same status and the API's JSON error body, as every other refusal has. As Node does, it
 * answers only while nothing of a response went out on the connection (else the client would read a corrupt answer),
 * then closes it.
 */
export function answerUnreadableRequestsInJson(
  server: HttpServer | Http2SecureServer,
  headers: Readonly<Record<string, string>>,
): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && inFlight?.headersSent !== true && error.code !== 'ECONNRESET')
      socket.write(rawAnswer(error, headers));
    socket.destroy(error);
  });
}

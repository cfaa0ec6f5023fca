import http, { type RequestListener } from 'node:http';
import http2 from 'node:http2';
import type { Http2SecureServer, Http2Session, ServerHttp2Stream } from 'node:http2';
import type { TlsSettings } from '../config/tls-settings';
import { http1Timeouts, type ServerTimeoutSettings } from './http-server';
import { answerUnreadableRequestsInJson } from './unreadable-requests';

/** Streams one HTTP/2 connection may have open at once (Node's default is unlimited; nginx and h2o use 128). */
export const MAX_CONCURRENT_STREAMS = 128;

/**
 * The HTTPS server of a deployment without a proxy: HTTP/2, and HTTP/1.1 for clients that do not offer it (ALPN),
 * both handed to the same request listener. It closes connections as `http.Server` does, so the graceful shutdown
 * treats both servers alike: `closeIdleConnections` also sends every HTTP/2 connection a GOAWAY (its streams in
 * flight finish, then it closes), `closeAllConnections` also cuts them.
 */
export interface SecureServer extends Http2SecureServer {
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

/**
 * The HTTPS server with the same limits as the plain one (http-server.ts). HTTP/1.1 connections get them as they
 * are; on HTTP/2 they become: a TLS handshake and the first request within HEADERS_TIMEOUT_MS of connecting, a
 * request's body within REQUEST_TIMEOUT_MS of its headers (else 408), and a connection without a stream for
 * KEEP_ALIVE_TIMEOUT_MS closed with a GOAWAY.
 */
export function createSecureServer(
  listener: RequestListener,
  settings: ServerTimeoutSettings,
  tls: TlsSettings,
  answerHeaders: Readonly<Record<string, string>>,
): SecureServer {
  const server = http2.createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      allowHTTP1: true,
      handshakeTimeout: settings.headersTimeoutMs,
      settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
    },
    // The app's listener takes node:http2's compatibility objects as well (http/http2-express.ts).
    listener as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  ) as SecureServer;
  // The HTTP/1.1 side reads these as http.Server does; set before listen(), which starts their checks.
  Object.assign(server, http1Timeouts(settings));
  answerUnreadableRequestsInJson(server, answerHeaders);

  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    watchSession(session, settings);
  });
  server.on('stream', (stream: ServerHttp2Stream) => limitRequestTime(stream, settings.requestTimeoutMs));

  const closeIdleHttp1 = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdleHttp1();
    for (const session of sessions) if (!session.closed) session.close();
  };
  server.closeAllConnections = () => {
    http.Server.prototype.closeAllConnections.call(server);
    for (const session of sessions) session.destroy();
  };
  return server;
}

/**
 * A connection must open its first stream within HEADERS_TIMEOUT_MS, and one with no stream open for
 * KEEP_ALIVE_TIMEOUT_MS is closed (GOAWAY): an idle or stalled client does not hold a connection forever.
 */
function watchSession(session: Http2Session, settings: ServerTimeoutSettings): void {
  let open = 0;
  let idleTimer: NodeJS.Timeout | undefined = setTimeout(() => session.destroy(), settings.headersTimeoutMs);
  const closeWhenIdle = () => {
    if (!session.closed) session.close();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open += 1;
    clearTimeout(idleTimer);
    idleTimer = undefined;
    stream.once('close', () => {
      open -= 1;
      if (open === 0 && !session.closed && !session.destroyed) {
        idleTimer = setTimeout(closeWhenIdle, settings.keepAliveTimeoutMs);
      }
    });
  });
  session.once('close', () => clearTimeout(idleTimer));
}

/**
 * A request's body must have arrived within REQUEST_TIMEOUT_MS of its headers; else the stream is answered 408 and
 * closed, as Node's HTTP/1 server answers a request that outlasts `requestTimeout`.
 */
function limitRequestTime(stream: ServerHttp2Stream, requestTimeoutMs: number): void {
  // No body: the request arrived whole with its headers.
  if (stream.endAfterHeaders) return;
  const timer = setTimeout(() => {
    if (stream.destroyed || stream.closed || stream.state.remoteClose) return;
    if (!stream.headersSent) stream.respond({ ':status': 408 }, { endStream: true });
    stream.close(http2.constants.NGHTTP2_CANCEL);
  }, requestTimeoutMs);
  stream.once('close', () => clearTimeout(timer));
}

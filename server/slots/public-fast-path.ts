import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { askClientToReconnect, type ServerLifecycle } from '../process/server-lifecycle';
import { answerSlotsAtOnce, SLOTS_PATH } from './slots-router';
import type { EncodedSlots, SlotsPayloadCache } from './slots-payload';
import type { TrustProxyFn } from '../http/client-address';
import type { PlainHandler } from '../http/plain-handler';
import { requestIdOf } from '../http/request-id';
import type { AnswerTimer } from '../observability/http-metrics';

export interface PublicFastPathParts {
  /**
   * The middleware Express runs first on every request that concern a public `GET`, the same instances in the same
   * order (app-routes.ts): the request's log line (LOG_REQUESTS), the proxy hop check. Each must call `next()` before
   * it returns and never with an error. Left out: the cross-site guard, which passes every `GET`; the API's security
   * headers and the request id without LOG_REQUESTS, which the fast path gives itself in the one `writeHead` of its
   * answer (answerSlotsAtOnce); the request timing, which is `timer`.
   */
  prelude: readonly PlainHandler[];
  /** With `/metrics` on: the request-duration measure, its clock started before the prelude (as Express's is first). */
  timer: AnswerTimer | null;
  trustProxy: TrustProxyFn;
  lifecycle: ServerLifecycle;
  slots: SlotsPayloadCache;
  /** With traces sent: names the route on the request's HTTP span, as Express's instrumentation would. */
  nameTracedRoute: ((route: string) => void) | null;
}

/** Whether the fast path answered; when false, nothing was done to the request and Express must answer it. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * `GET` and `HEAD` `/slots` (any query string: the route reads none) answered before Express's router, byte for
 * byte as the Express route answers them: the same prelude, request id and API security headers (HSTS when the
 * request came over HTTPS, told as `req.secure` tells it), `Connection: close` (HTTP/2: a GOAWAY) once draining, the
 * same ETag, 304 and body.
 * Express's router (its layers, path matching, prototype switch per request) costs the busiest public route more
 * than the answer itself; every other request, and any other spelling of the path (`/slots/`, `/SLOTS`, which
 * Express's loose matching also serves), goes to Express. public-fast-path.test.ts compares both ways.
 */
export function createPublicFastPath(parts: PublicFastPathParts): FastPath {
  const { prelude, timer, trustProxy, lifecycle, slots, nameTracedRoute } = parts;
  return (req, res) => {
    if (!isSlotsRequest(req)) return false;
    let json: EncodedSlots;
    try {
      json = slots.current();
    } catch {
      // Before anything was done to the request: Express answers it, through its error handler.
      return false;
    }
    const started = timer === null ? 0n : timer.start();
    for (const handler of prelude) runSynchronously(handler, req, res);
    nameTracedRoute?.(SLOTS_PATH);
    // With LOG_REQUESTS, pino-http (in the prelude) gave the request its id already.
    req.id ??= requestIdOf(req);
    if (lifecycle.draining) askClientToReconnect(res);
    answerSlotsAtOnce(req, res, json, { requestId: String(req.id), secure: isSecure(req, trustProxy) });
    timer?.answered(req, res, started);
    return true;
  };
}

function isSlotsRequest(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  // Without a Host header, HTTP/1.1's request goes to the app, which refuses it (http/host-header.ts).
  if (req.headers.host === undefined && req.httpVersionMajor === 1) return false;
  const url = req.url ?? '';
  return url.startsWith(SLOTS_PATH) && (url.length === SLOTS_PATH.length || url[SLOTS_PATH.length] === '?');
}

function runSynchronously(handler: PlainHandler, req: IncomingMessage, res: ServerResponse): void {
  let passed = false;
  handler(req, res, (error) => {
    passed = error === undefined || error === null;
  });
  // A programming error (a middleware made asynchronous, or one that can fail): it has no place before the router.
  if (!passed) throw new Error(`A fast-path middleware (${handler.name || 'anonymous'}) did not pass the request on.`);
}

/** Express's `req.secure` (`req.protocol === 'https'`), from the socket and a trusted proxy's X-Forwarded-Proto. */
export function isSecure(req: IncomingMessage, trustProxy: TrustProxyFn): boolean {
  const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true;
  if (!trustProxy(req.socket.remoteAddress, 0)) return encrypted;
  const forwarded = req.headers['x-forwarded-proto'];
  // Node joins a repeated X-Forwarded-Proto into one string; an array never comes, but the type allows one.
  const header = (typeof forwarded === 'string' ? forwarded : forwarded?.join(', ')) || (encrypted ? 'https' : 'http');
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim() === 'https';
}

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Express } from 'express';

/** The prototypes Express gives the requests and responses of HTTP/2 streams (see serveHttp2Through). */
export interface Http2Prototypes {
  request: object;
  response: object;
}

type Handle = (
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/** Whether a request came over HTTP/2 (node:http2's compatibility objects), not HTTP/1.x. */
export function isHttp2Request(req: IncomingMessage | Http2ServerRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/**
 * Lets an Express 5 app answer the requests of node:http2's compatibility API, beside HTTP/1.1 ones.
 *
 * Express hands every request and response the prototypes of its app (`app.request`, `app.response`), which are
 * built on http.IncomingMessage and http.ServerResponse: on an HTTP/2 stream's objects they would replace
 * node:http2's own methods (headers, end, writeHead) with HTTP/1's, which work on a socket those objects do not
 * have. So HTTP/2 requests get prototypes of their own, made once per app: node:http2's Http2ServerRequest and
 * Http2ServerResponse with Express's additions on top (req.get, req.protocol, res.json, res.cookie, ..., and what
 * the app added to its prototypes, e.g. `req.log`); what Node's HTTP/1 classes define is left to node:http2's
 * version. `app.handle` picks them per request, so HTTP/1.1 requests go through Express exactly as before.
 *
 * Three gaps of node:http2's objects are filled: `req.headers.host` is set from `:authority` when the client sent no
 * Host header (HTTP/2 clients rarely do, and Express reads the host from it: req.host, the CSRF check's own origin);
 * a body without Content-Length is marked as HTTP/1.1 would frame it, `Transfer-Encoding: chunked` (body-parser
 * reads no body without one of the two); and `res._implicitHeader()` exists (express-session calls it before it
 * writes the end of a body).
 *
 * Call once the app's prototypes are complete (after every middleware that adds to them was made).
 */
export function serveHttp2Through(app: Express): Http2Prototypes {
  const prototypes: Http2Prototypes = {
    request: expressOver(Http2ServerRequest.prototype, app.request, http.IncomingMessage.prototype),
    response: expressOver(Http2ServerResponse.prototype, app.response, http.ServerResponse.prototype),
  };
  Object.defineProperties(prototypes.response, {
    _implicitHeader: {
      configurable: true,
      value(this: Http2ServerResponse) {
        this.writeHead(this.statusCode);
      },
    },
    // HTTP/2 has no reason phrase: node:http2 warns on every use; finalhandler sets one.
    statusMessage: { configurable: true, get: () => '', set: () => undefined },
  });
  // The app seen with HTTP/2's prototypes: everything else (settings, router) is the app's own.
  const http2App = Object.create(app, {
    request: { value: prototypes.request },
    response: { value: prototypes.response },
  }) as Express;
  // `handle` is what `app(req, res)` calls; Express's typings leave it out.
  const handled = app as unknown as { handle: Handle };
  const handle = handled.handle.bind(app);
  const handleHttp2 = handled.handle.bind(http2App);
  handled.handle = (req, res, next) => {
    if (!isHttp2Request(req)) return handle(req, res, next);
    const headers = req.headers;
    if (headers.host === undefined && headers[':authority'] !== undefined) headers.host = headers[':authority'];
    // A body of a length not said up front: HTTP/1.1 would frame it chunked, and body parsers see a body only when
    // Content-Length or Transfer-Encoding says there is one (HTTP/2 forbids the latter; the body ends with its stream).
    if (headers['content-length'] === undefined && !req.stream.endAfterHeaders)
      headers['transfer-encoding'] = 'chunked';
    return handleHttp2(req, res, next);
  };
  return prototypes;
}

/**
 * A prototype on `base` (node:http2's class) carrying the properties of `expressPrototype` and of its chain up to
 * `nodePrototype` (Express's additions, nearest first), except those Node's HTTP/1 classes define.
 */
function expressOver(base: object, expressPrototype: object, nodePrototype: object): object {
  const nodeNames = new Set<PropertyKey>();
  for (
    let proto: object | null = nodePrototype;
    proto !== null;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const key of Reflect.ownKeys(proto)) nodeNames.add(key);
  }
  const result = Object.create(base) as object;
  for (
    let proto: object | null = expressPrototype;
    proto !== null && proto !== nodePrototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const key of Reflect.ownKeys(proto)) {
      if (nodeNames.has(key) || Object.prototype.hasOwnProperty.call(result, key)) continue;
      Object.defineProperty(result, key, Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor);
    }
  }
  return result;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IRouter } from 'express';
import { REQUEST_ID_HEADER } from '../http/request-id';
import { jsonRoute } from '../http/json-route';
import { JSON_CONTENT_TYPE } from '../http/send-json';
import { API_SECURITY_HEADERS, HSTS } from '../security/api-security-headers';
import { ifNoneMatchHits } from './etag';
import type { EncodedSlots, SlotsPayloadCache } from './slots-payload';

export const SLOTS_PATH = '/slots';
/** Caches keep the answer but ask again each time: the ETag makes that a 304 while nothing changed. */
const SLOTS_CACHE_CONTROL = 'no-cache';

/** The API's security headers as /slots sends them (its own Cache-Control), as `writeHead` takes them: name, value, … */
const SLOTS_SECURITY_HEADERS: readonly string[] = Object.entries({
  ...API_SECURITY_HEADERS,
  'Cache-Control': SLOTS_CACHE_CONTROL,
}).flat();

/**
 * `GET /slots`: the public locations, for pages without a session (the sign-in page). Served from the cached bytes of
 * the current registry version; caches must revalidate (`no-cache`) and get 304 while the ETag still matches.
 *
 * Added to the app itself rather than to a router of its own: the route every page without a session asks for
 * should not pay for entering one more router.
 */
export function addSlotsRoute(router: IRouter, cache: SlotsPayloadCache): void {
  jsonRoute(router, SLOTS_PATH, {
    // The middleware set the security headers and the request id already; writeHead replaces them with the same.
    GET: (req, res) => answerSlotsAtOnce(req, res, cache.current(), { requestId: String(req.id), secure: req.secure }),
  });
}

/** Who asked, as the public fast path worked it out (the API security headers' middleware and the request id's). */
export interface SlotsRequester {
  /** `X-Request-Id` of the answer. */
  requestId: string;
  /** Came over HTTPS, as Express's `req.secure` says: HSTS goes with the answer. */
  secure: boolean;
}

/**
 * The answer of `GET` (and `HEAD`) `/slots`, headers included (security headers, HSTS over HTTPS, request id),
 * written in one `writeHead` call: the Express route above and the public fast path (http/public-fast-path.ts,
 * before Express's router, where no middleware set a header before) both answer through here. Node validates and stores every `setHeader` on its own and then walks them again to write them; at
 * the rate /slots is asked for, that was about a third of its cost in wrk runs (bench: /slots against bare
 * `node:http`). Headers something set before (`Connection: close` while draining, the id with LOG_REQUESTS) are
 * kept: `writeHead` merges them.
 */
export function answerSlotsAtOnce(
  req: IncomingMessage,
  res: ServerResponse,
  json: EncodedSlots,
  requester: SlotsRequester,
): void {
  const headers = [...SLOTS_SECURITY_HEADERS, REQUEST_ID_HEADER, requester.requestId, 'ETag', json.publicEtag];
  if (requester.secure) headers.push('Strict-Transport-Security', HSTS);
  if (ifNoneMatchHits(req.headers['if-none-match'], json.publicEtag)) {
    res.writeHead(304, headers).end();
    return;
  }
  headers.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(json.publicBody.length));
  res.writeHead(200, headers).end(json.publicBody);
}

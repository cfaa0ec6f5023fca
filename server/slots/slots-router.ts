import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IRouter } from 'express';
import { jsonRoute } from '../http/json-route';
import { sendJsonBytes } from '../http/send-json';
import { ifNoneMatchHits } from './etag';
import type { EncodedSlots, SlotsPayloadCache } from './slots-payload';

export const SLOTS_PATH = '/slots';

/**
 * `GET /slots`: the public locations, for pages without a session (the sign-in page). Served from the cached bytes of
 * the current registry version; caches must revalidate (`no-cache`) and get 304 while the ETag still matches.
 *
 * Added to the app itself rather than to a router of its own: the route every page without a session asks for
 * should not pay for entering one more router.
 */
export function addSlotsRoute(router: IRouter, cache: SlotsPayloadCache): void {
  jsonRoute(router, SLOTS_PATH, {
    GET: (req, res) => answerSlots(req, res, cache.current()),
  });
}

/**
 * The answer of `GET` (and `HEAD`) `/slots`, from Node's request and response only: the Express route above and the
 * public fast path (http/public-fast-path.ts, before Express's router) both send it through here.
 */
export function answerSlots(req: IncomingMessage, res: ServerResponse, json: EncodedSlots): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('ETag', json.publicEtag);
  if (ifNoneMatchHits(req.headers['if-none-match'], json.publicEtag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  sendJsonBytes(res, json.publicBody);
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming id is kept only when it is short and plain, so a client cannot forge log lines with it. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the caller's `X-Request-Id` (from a proxy or a client) when acceptable, else a fresh UUID.
 * It is echoed in the response, so a client's report can be matched to the server's log lines.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id assignRequestId gives, without setting the header: for an answer that writes all its headers at once. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}

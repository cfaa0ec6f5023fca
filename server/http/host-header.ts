import type { RequestHandler } from 'express';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from './http-error';

/**
 * Refuses an HTTP/1.1 request without a Host header (RFC 9112: 400), as every refusal is, in JSON with the API's
 * headers. Node would refuse it itself with an empty 400 (`requireHostHeader`, off on the app's servers: process/
 * http-server.ts); HTTP/1.0 had no Host, and HTTP/2 names the host in `:authority`.
 */
export const requireHostHeader: RequestHandler = (req, _res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
    next(HttpError.invalidRequest(ERROR_MESSAGES.noHost));
    return;
  }
  next();
};

import express, { type RequestHandler } from 'express';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from './http-error';

/** `application/json` or a `+json` type, with any parameters (charset). */
const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The largest JSON body the API reads; anything bigger is 413. */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * For routes that take a JSON body: a request of any other content type is 415 (which also keeps HTML forms of
 * other sites from posting here), one over the limit 413, malformed JSON 400. The parsed body is in `req.body`.
 */
export function requireJsonBody(limitBytes: number = JSON_BODY_LIMIT_BYTES): RequestHandler[] {
  const checkType: RequestHandler = (req, _res, next) => {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !JSON_CONTENT_TYPE.test(type)) {
      next(new HttpError('unsupported_media_type', ERROR_MESSAGES.unsupportedMediaType));
      return;
    }
    next();
  };
  const parse = express.json({ limit: limitBytes, strict: true, type: () => true });
  return [checkType, parse];
}

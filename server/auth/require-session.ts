import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error';

/** The guard of every route that needs a signed-in user: 401 `unauthenticated` otherwise. */
export const requireSession: RequestHandler = (req, _res, next) => {
  if (req.user) {
    next();
    return;
  }
  next(HttpError.unauthenticated());
};

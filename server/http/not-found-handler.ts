import type { RequestHandler } from 'express';
import { HttpError } from './http-error';

/** Registered after every route: whatever nobody answered is a JSON 404. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(HttpError.notFound());
};

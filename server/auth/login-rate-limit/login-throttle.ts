import type { Request, RequestHandler } from 'express';
import { ERROR_MESSAGES } from '../../../shared';
import type { LoginAttemptKey, LoginRateLimiter } from './login-rate-limiter';
import { HttpError } from '../../http/http-error';

/**
 * Guards the sign-in route: mount it after the JSON body parser and before the handler that checks the password.
 * Over the limit: 429 `too_many_requests` with `Retry-After`. A 2xx answer from the handler counts as a successful
 * sign-in and resets the account+IP count.
 */
export function createLoginThrottle(limiter: LoginRateLimiter): RequestHandler {
  if (limiter.disabled) return (_req, _res, next) => next();
  return async (req, res, next) => {
    const key = attemptKey(req);
    let verdict;
    try {
      verdict = await limiter.attempt(key);
    } catch (error) {
      // The counter store is unreachable: refusing is safer than letting unlimited guesses through.
      req.log?.error({ err: error }, 'login rate limiter store failed');
      next(new HttpError('unavailable', ERROR_MESSAGES.unavailable));
      return;
    }
    if (!verdict.allowed) {
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      next(new HttpError('too_many_requests', ERROR_MESSAGES.tooManyAttempts));
      return;
    }
    res.once('finish', () => {
      if (res.statusCode < 200 || res.statusCode >= 300) return;
      limiter.succeeded(key).catch((error: unknown) => {
        req.log?.warn({ err: error }, 'could not reset the login rate limit after a successful sign-in');
      });
    });
    next();
  };
}

function attemptKey(req: Request): LoginAttemptKey {
  const body: unknown = req.body;
  const username =
    body !== null && typeof body === 'object' && typeof (body as { username?: unknown }).username === 'string'
      ? (body as { username: string }).username
      : '';
  return { username, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

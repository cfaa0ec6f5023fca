import type { Request, RequestHandler } from 'express';
import { ERROR_MESSAGES } from '../../../shared';
import type { LoginAttemptKey, LoginRateLimiter } from './login-rate-limiter';
import { HttpError } from '../../http/http-error';

/**
 * Guards the sign-in route: mount it after the JSON body parser and before the handler that checks the password.
 * Over the limit: 429 `too_many_requests` with `Retry-After`. Only failures count: a 2xx answer from the handler is
 * a successful sign-in (its points are given back, the account+IP count starts again and the client is remembered
 * as the account's own), and a 503 never reached the password check.
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
      const status = res.statusCode;
      let settle: Promise<void> | undefined;
      if (status >= 200 && status < 300) settle = limiter.succeeded(key, verdict);
      // 503: turned away before the password was checked (the checks were busy); not a failure either.
      else if (status === 503) settle = limiter.unchecked(key, verdict);
      settle?.catch((error: unknown) => {
        req.log?.warn({ err: error }, 'could not give back the login rate limit points of an attempt');
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

import type { Request, RequestHandler, Response } from 'express';
import { ERROR_MESSAGES } from '../../../shared';
import type { LoginAttemptKey, LoginRateLimiter } from './login-rate-limiter';
import { HttpError } from '../../http/http-error';
import { isDatabaseUnavailable } from '../../storage/database-unavailable';
import { isSessionStoreUnavailable } from '../../storage/session-store-unavailable';
import { storeFailureFields } from '../../storage/store-outage';

/**
 * What a password check found: `signed-in` a correct password (a successful sign-in), `wrong` a failure, `disabled`
 * the right password of a disabled account (no sign-in, and no guess either).
 */
export type PasswordCheckOutcome = 'signed-in' | 'wrong' | 'disabled';

/** What the password check of a let-through attempt reports to its throttle (reportPasswordCheck). */
const passwordChecks = new WeakMap<Response, (outcome: PasswordCheckOutcome) => void>();

/**
 * Called by the sign-in handler as soon as the password is checked, before it answers: a correct password gives the
 * attempt's points back there and then, whatever the client does next. (Settling on the answer's `finish` counted a
 * correct sign-in whose client gave up while the check ran, two `curl -m 2` say, as a failure: a response whose
 * connection is gone never finishes.) A disabled account's right password only gives the attempt's points back: it
 * is no sign-in, so it neither starts the account+client count again nor makes the client the account's own (a
 * guesser who hits the password of a disabled account gets no fresh allowance for the next one).
 */
export function reportPasswordCheck(res: Response, outcome: PasswordCheckOutcome): void {
  passwordChecks.get(res)?.(outcome);
}

/**
 * Guards the sign-in route: mount it after the JSON body parser and before the handler that checks the password.
 * Over the limit: 429 `too_many_requests` with `Retry-After`. Only failures count: a correct password (reported by
 * the handler with reportPasswordCheck, or a 2xx answer) is a successful sign-in (its points are given back, the
 * account+IP count starts again and the client is remembered as the account's own), a disabled account's right
 * password only gives its points back, and a 503 or a 429 of the password checks' gate never reached the password
 * check. Each attempt is settled once.
 */
export function createLoginThrottle(
  limiter: LoginRateLimiter,
  /** Which password the account has now (UserStore.passwordGeneration): its counts are kept per password. */
  passwordGeneration: (username: string) => Promise<string> = async () => '',
): RequestHandler {
  if (limiter.disabled) return (_req, _res, next) => next();
  return async (req, res, next) => {
    let key: LoginAttemptKey;
    let verdict;
    // Which read failed, for the log: the database (the account's password) or the counters' store (Redis, or the
    // database too).
    let reading = 'the account’s password';
    try {
      const { username, ip } = attemptKey(req);
      key = { username, ip, passwordGeneration: await passwordGeneration(username) };
      reading = 'the sign-in counters';
      verdict = await limiter.attempt(key);
    } catch (error) {
      // Refusing is safer than letting unlimited guesses through. A database not answering is answered 503 and
      // logged in one line by the error handler, as every request's during an outage.
      if (isDatabaseUnavailable(error)) {
        next(error);
        return;
      }
      // Redis lost or not answering: known, and logged once each way by the session store on the same Redis; a stack
      // per attempt said nothing more. Anything else is logged whole.
      if (isSessionStoreUnavailable(error)) {
        req.log?.warn({ reason: error.message }, `sign-in refused (503): reading ${reading} failed: ${error.message}`);
      } else req.log?.error({ err: error }, `sign-in refused (503): reading ${reading} failed`);
      next(new HttpError('unavailable', ERROR_MESSAGES.unavailable));
      return;
    }
    if (!verdict.allowed) {
      req.log?.warn(
        { username: key.username, client: key.ip, retryAfterSeconds: verdict.retryAfterSeconds },
        'sign-in throttled',
      );
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      next(new HttpError('too_many_requests', ERROR_MESSAGES.tooManyAttempts));
      return;
    }
    let settled = false;
    const settle = (how: 'succeeded' | 'unchecked' | 'failed') => {
      if (settled) return;
      settled = true;
      passwordChecks.delete(res);
      if (how === 'failed') return;
      const giveBack = how === 'succeeded' ? limiter.succeeded(key, verdict) : limiter.unchecked(key, verdict);
      giveBack.catch((error: unknown) => {
        req.log?.warn(storeFailureFields(error), 'could not give back the login rate limit points of an attempt');
      });
    };
    passwordChecks.set(res, (outcome) =>
      settle(outcome === 'signed-in' ? 'succeeded' : outcome === 'disabled' ? 'unchecked' : 'failed'),
    );
    // 'close' comes after 'finish', and also when the client went away first. A client gone while the password is
    // still being checked leaves the attempt open: the check's report settles it when it ends.
    res.once('close', () => {
      if (!res.writableFinished) return;
      const status = res.statusCode;
      if (status >= 200 && status < 300) settle('succeeded');
      // 503 or 429 here: turned away before the password was checked (the checks were busy, or this client held its
      // share of them: this throttle's own 429 answers before this listener is set); not a failure either.
      else if (status === 503 || status === 429) settle('unchecked');
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

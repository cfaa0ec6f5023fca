import type { Request, Response } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from '../http/rate-limiter-classes';
import { ERROR_MESSAGES } from '../../shared';
import { counterIn, keepCountersClean, type RateLimitStore } from '../auth/login-rate-limit/login-rate-limiter';
import { clientKey } from '../http/client-key';
import { HttpError } from '../http/http-error';
import { isDatabaseUnavailable } from '../storage/database-unavailable';
import { storeFailureFields } from '../storage/store-outage';
import type { TeamTokenLimitSettings } from './team-token-limit-settings';
import type { TeamTokenStore, TokenCheck } from './team-token-store';

/**
 * The team tokens' check, limited per client (an IPv4 address, an IPv6 /64) in the failures it may have: past
 * `perIp` unknown tokens in the window, 429 `too_many_requests` with `Retry-After`, before the token is looked up.
 * Without it a client could try tokens as fast as the server answers (the 256-bit secret makes a hit hopeless, but
 * every try is a database read and a log line).
 *
 * Counted as the sign-in's failures are, in the same store (Redis, else the database: every instance counts the same
 * tries, and a restart hands out no fresh ones). Only a guess counts: a token no stored one matches. A valid token,
 * and a revoked or expired one presented whole (its holder is told which), give their point back, so a team's CI
 * never runs into the limit by publishing, and a correct token from another address is never limited. Every check
 * takes its point first, so guesses sent in parallel cannot slip past the count; a refused one gives it back, so
 * waiting out a 429 never makes the wait longer. From an address over the limit a correct token waits too: answering
 * it would tell the guessing client which of its tokens is right, at full speed.
 */
export class TeamTokenThrottle {
  private constructor(
    private readonly tokens: TeamTokenStore,
    private readonly perIp: RateLimiterAbstract | null,
    private stopCleanup: (() => void) | undefined,
  ) {}

  static create(tokens: TeamTokenStore, settings: TeamTokenLimitSettings, store: RateLimitStore): TeamTokenThrottle {
    if (settings.perIp === null) return new TeamTokenThrottle(tokens, null, undefined);
    const perIp = counterIn(store, {
      points: settings.perIp,
      duration: settings.windowSeconds,
      keyPrefix: 'team_token_ip',
    });
    // Its expired rows are deleted while it runs, the sign-in limits on or off (LOGIN_RATE_LIMIT=off).
    return new TeamTokenThrottle(tokens, perIp, keepCountersClean(store));
  }

  /** Stops its share of the counters' cleanup (the counters stay where they are). */
  close(): void {
    this.stopCleanup?.();
    this.stopCleanup = undefined;
  }

  /**
   * What `token`, sent by `req`, proves (TeamTokenStore.check); throws the 429 (its `Retry-After` set on `res`) when
   * the request's client used up its failures. A counter store that fails refuses the check (503): letting every
   * guess through would be the limit failing open.
   */
  async check(req: Request, res: Response, token: string): Promise<TokenCheck> {
    const { perIp } = this;
    if (perIp === null) return this.tokens.check(token);
    const client = clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const retryAfterSeconds = await pointTaken(perIp, client, req);
    if (retryAfterSeconds !== null) {
      await perIp.reward(client, 1);
      req.log?.warn({ client, retryAfterSeconds }, 'team token checks throttled');
      res.setHeader('Retry-After', String(retryAfterSeconds));
      throw new HttpError('too_many_requests', ERROR_MESSAGES.tooManyTokenChecks);
    }
    let checked: TokenCheck | undefined;
    try {
      checked = await this.tokens.check(token);
      return checked;
    } finally {
      // A guess keeps its point; anything else (a token known to the store, a check that failed) gives it back.
      if (checked?.status !== 'invalid') {
        perIp.reward(client, 1).catch((error: unknown) => {
          req.log?.warn(storeFailureFields(error), 'could not give back the team token limit point of a request');
        });
      }
    }
  }
}

/** Takes the client's point: null when it had one left, else the seconds to wait. */
async function pointTaken(perIp: RateLimiterAbstract, client: string, req: Request): Promise<number | null> {
  try {
    await perIp.consume(client);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    // A database not answering is answered 503 and logged in one line by the error handler, as every request's.
    if (isDatabaseUnavailable(rejection)) throw rejection;
    req.log?.error({ err: rejection }, 'team token check refused (503): reading its counters failed');
    throw new HttpError('unavailable', ERROR_MESSAGES.unavailable);
  }
}

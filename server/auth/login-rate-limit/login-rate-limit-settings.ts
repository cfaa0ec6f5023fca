import { readInteger, readLimit } from '../../config/env-values';

/** How many sign-in attempts are allowed, per window, before 429. A null limit is switched off. */
export interface LoginRateLimitSettings {
  /** Failed attempts per account+IP per window (`LOGIN_RATE_LIMIT`, default 10; `off` disables every limit). */
  perAccountAndIp: number | null;
  /** Failed attempts per IP per window, whatever the account (`LOGIN_IP_RATE_LIMIT`, default 100). */
  perIp: number | null;
  /**
   * Failed attempts per account per window from all addresses together (`LOGIN_ACCOUNT_RATE_LIMIT`, default 30).
   * Beyond it the account is slowed down, not locked: one attempt per `accountSlowdownSeconds`, from anywhere, so
   * guessing from many addresses crawls while the account's owner can still sign in.
   */
  perAccount?: number | null;
  /** Seconds between attempts on an account over its limit (`LOGIN_ACCOUNT_SLOWDOWN_SECONDS`, default 10). */
  accountSlowdownSeconds?: number;
  /**
   * How long a client that signed in to an account is remembered as that account's own (default 30 days): from
   * there the account is never slowed down, whatever failures come from elsewhere.
   */
  knownClientSeconds?: number;
  /** Length of the window in seconds (`LOGIN_RATE_LIMIT_WINDOW_SECONDS`, default 900 = 15 min). */
  windowSeconds: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT = 10;
export const DEFAULT_LOGIN_IP_RATE_LIMIT = 100;
export const DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS = 15 * 60;
export const DEFAULT_LOGIN_ACCOUNT_RATE_LIMIT = 30;
export const DEFAULT_LOGIN_ACCOUNT_SLOWDOWN_SECONDS = 10;
export const DEFAULT_KNOWN_CLIENT_SECONDS = 30 * 24 * 60 * 60;

export const DEFAULT_LOGIN_RATE_LIMIT_SETTINGS: Readonly<LoginRateLimitSettings> = Object.freeze({
  perAccountAndIp: DEFAULT_LOGIN_RATE_LIMIT,
  perIp: DEFAULT_LOGIN_IP_RATE_LIMIT,
  perAccount: DEFAULT_LOGIN_ACCOUNT_RATE_LIMIT,
  accountSlowdownSeconds: DEFAULT_LOGIN_ACCOUNT_SLOWDOWN_SECONDS,
  windowSeconds: DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS,
});

/** `LOGIN_RATE_LIMIT=off` switches both limits off (benchmarks); each limit can also be switched off alone. */
export function loginRateLimitSettingsFromEnv(env: NodeJS.ProcessEnv): LoginRateLimitSettings {
  const perAccountAndIp = readLimit(env, 'LOGIN_RATE_LIMIT', DEFAULT_LOGIN_RATE_LIMIT);
  const windowSeconds = readInteger(env, 'LOGIN_RATE_LIMIT_WINDOW_SECONDS', DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS, 1);
  if (perAccountAndIp === null) return { perAccountAndIp: null, perIp: null, perAccount: null, windowSeconds };
  return {
    perAccountAndIp,
    perIp: readLimit(env, 'LOGIN_IP_RATE_LIMIT', DEFAULT_LOGIN_IP_RATE_LIMIT),
    perAccount: readLimit(env, 'LOGIN_ACCOUNT_RATE_LIMIT', DEFAULT_LOGIN_ACCOUNT_RATE_LIMIT),
    accountSlowdownSeconds: readInteger(
      env,
      'LOGIN_ACCOUNT_SLOWDOWN_SECONDS',
      DEFAULT_LOGIN_ACCOUNT_SLOWDOWN_SECONDS,
      1,
    ),
    windowSeconds,
  };
}

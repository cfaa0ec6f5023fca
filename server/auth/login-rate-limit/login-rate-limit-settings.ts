import { readInteger, readLimit } from '../../config/env-values';

/** How many sign-in attempts are allowed, per window, before 429. A null limit is switched off. */
export interface LoginRateLimitSettings {
  /** Failed attempts per account+IP per window (`LOGIN_RATE_LIMIT`, default 10; `off` disables every limit). */
  perAccountAndIp: number | null;
  /** Failed attempts per IP per window, whatever the account (`LOGIN_IP_RATE_LIMIT`, default 100). */
  perIp: number | null;
  /** Length of the window in seconds (`LOGIN_RATE_LIMIT_WINDOW_SECONDS`, default 900 = 15 min). */
  windowSeconds: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT = 10;
export const DEFAULT_LOGIN_IP_RATE_LIMIT = 100;
export const DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS = 15 * 60;

export const DEFAULT_LOGIN_RATE_LIMIT_SETTINGS: Readonly<LoginRateLimitSettings> = Object.freeze({
  perAccountAndIp: DEFAULT_LOGIN_RATE_LIMIT,
  perIp: DEFAULT_LOGIN_IP_RATE_LIMIT,
  windowSeconds: DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS,
});

/** `LOGIN_RATE_LIMIT=off` switches both limits off (benchmarks); each limit can also be switched off alone. */
export function loginRateLimitSettingsFromEnv(env: NodeJS.ProcessEnv): LoginRateLimitSettings {
  const perAccountAndIp = readLimit(env, 'LOGIN_RATE_LIMIT', DEFAULT_LOGIN_RATE_LIMIT);
  const windowSeconds = readInteger(env, 'LOGIN_RATE_LIMIT_WINDOW_SECONDS', DEFAULT_LOGIN_RATE_LIMIT_WINDOW_SECONDS, 1);
  if (perAccountAndIp === null) return { perAccountAndIp: null, perIp: null, windowSeconds };
  return { perAccountAndIp, perIp: readLimit(env, 'LOGIN_IP_RATE_LIMIT', DEFAULT_LOGIN_IP_RATE_LIMIT), windowSeconds };
}

import { readLimit } from '../config/env-values';

/** How many requests with an unknown team token one client may send per window before 429; null: no limit. */
export interface TeamTokenLimitSettings {
  /** Per client (IPv4 address or IPv6 /64) per window (`TEAM_TOKEN_RATE_LIMIT`, default 20; `off` disables it). */
  perIp: number | null;
  /** Length of the window in seconds (15 minutes, as the sign-in's). */
  windowSeconds: number;
}

export const DEFAULT_TEAM_TOKEN_RATE_LIMIT = 20;

export const DEFAULT_TEAM_TOKEN_LIMIT_SETTINGS: Readonly<TeamTokenLimitSettings> = Object.freeze({
  perIp: DEFAULT_TEAM_TOKEN_RATE_LIMIT,
  windowSeconds: 15 * 60,
});

/** `TEAM_TOKEN_RATE_LIMIT`: a whole number of at least 1, or `off`. */
export function teamTokenLimitSettingsFromEnv(env: NodeJS.ProcessEnv): TeamTokenLimitSettings {
  return {
    ...DEFAULT_TEAM_TOKEN_LIMIT_SETTINGS,
    perIp: readLimit(env, 'TEAM_TOKEN_RATE_LIMIT', DEFAULT_TEAM_TOKEN_RATE_LIMIT),
  };
}

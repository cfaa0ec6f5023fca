import { ConfigError } from '../config/config-error';
import { readInteger, refuseExamplePlaceholder } from '../config/env-values';

/** Where `GET /metrics` is served; nowhere (and nothing measured) unless METRICS_TOKEN or METRICS_PORT is set. */
export interface MetricsSettings {
  /** METRICS_TOKEN: `/metrics` answers only `Authorization: Bearer <token>` (on the app's port, and on METRICS_PORT). */
  token: string | undefined;
  /** METRICS_PORT: a listener of its own serves `/metrics` (and the app's port does not); 0 picks a free one. */
  port: number | undefined;
  /** METRICS_HOST: the separate listener's address; 127.0.0.1 unless set, so only the machine reaches it. */
  host: string;
}

/** A token shorter than this could be guessed by a scraper-shaped brute force. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

export function metricsSettingsFromEnv(env: NodeJS.ProcessEnv): MetricsSettings {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token))) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces (e.g. openssl rand -hex 24).`,
    );
  }
  if (token !== undefined) refuseExamplePlaceholder('METRICS_TOKEN', token, 'openssl rand -hex 24');
  const rawPort = env.METRICS_PORT?.trim();
  const port = rawPort ? readInteger(env, 'METRICS_PORT', 0) : undefined;
  if (port !== undefined && port > 65535) throw new ConfigError(`METRICS_PORT=${rawPort} is not a port (0-65535).`);
  return { token, port, host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

/** Whether anything is measured: only when `/metrics` is served somewhere. */
export function metricsEnabled(settings: MetricsSettings): boolean {
  return settings.token !== undefined || settings.port !== undefined;
}

import { InvalidSettingError } from '../config/env-values';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from './http-descriptor-source';

/** The variable that bounds each request to a remote's origin, read by the hosts and by `npm run remotes:reload`. */
export const REMOTE_DESCRIPTOR_TIMEOUT_VARIABLE = 'REMOTE_DESCRIPTOR_TIMEOUT_MS';

/**
 * Below this, even an origin on the same machine may not answer over TLS, and every remote declared by entry would
 * read as timed out, silently (its slots left out).
 */
export const MIN_REMOTE_DESCRIPTOR_TIMEOUT_MS = 100;

/**
 * Above this, a host's start waits longer for an origin that does not answer than it waits between two checks of the
 * remotes it serves (every 30 s): the checks would overlap, and a start would outlast an orchestrator's patience.
 */
export const MAX_REMOTE_DESCRIPTOR_TIMEOUT_MS = 30_000;

/**
 * REMOTE_DESCRIPTOR_TIMEOUT_MS: how long one request to a remote's origin may take (its descriptor, read at the
 * start, on every check and reload, and by `npm run remotes:reload`; a release's files, when published or put in
 * force). An operator whose remotes are served from a slow origin raises it; the command reads the same variable,
 * so that what it reports unreachable is what the hosts would. Outside its bounds the value is refused, naming them.
 */
export function remoteDescriptorTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const name = REMOTE_DESCRIPTOR_TIMEOUT_VARIABLE;
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_DESCRIPTOR_TIMEOUT_MS;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= MIN_REMOTE_DESCRIPTOR_TIMEOUT_MS && value <= MAX_REMOTE_DESCRIPTOR_TIMEOUT_MS)) {
    throw new InvalidSettingError(
      name,
      raw,
      `a whole number of milliseconds from ${MIN_REMOTE_DESCRIPTOR_TIMEOUT_MS} to ${MAX_REMOTE_DESCRIPTOR_TIMEOUT_MS} ` +
        `(default ${DEFAULT_DESCRIPTOR_TIMEOUT_MS})`,
    );
  }
  return value;
}

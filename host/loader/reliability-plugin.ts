import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { HOST_MESSAGES } from './messages';

/** What failed about a remote, logged once, when it is quarantined. */
export interface RemoteFailure {
  remote: string;
  stage: 'manifest' | 'entry';
  url: string;
  attempts: number;
  error: string;
}

/** What the fallback module is made from: which component could not be loaded, and why. */
export interface FallbackRequest {
  remote: string;
  component: string;
  error: string;
  /** True when the remote is (now) quarantined, i.e. it will not be requested again on this page. */
  quarantined: boolean;
}

export type FetchManifest = (url: string, init: RequestInit) => Promise<Response>;

export interface ReliabilityOptions {
  /** Longest wait for one `mf-manifest.json` response (a hanging manifest has no timeout by default). */
  manifestTimeoutMs: number;
  /** Longest wait for one `remoteEntry.js` script (20 s by default otherwise). */
  entryTimeoutMs: number;
  /** Further attempts after a failed manifest or entry load. */
  retries: number;
  /** Builds the module `loadRemote` resolves to when a remote module cannot be loaded. */
  fallbackModule(request: FallbackRequest): unknown;
  fetch?: FetchManifest;
  log?: (message: string, failure: RemoteFailure) => void;
}

/**
 * The failure budget of one remote: the worst case (hanging manifest or entry script, one retry) ends in the fallback
 * within about 8 s, so a broken remote is given up on, and logged, within 10 s of the page asking for it.
 */
export const DEFAULT_RELIABILITY = Object.freeze({ manifestTimeoutMs: 3500, entryTimeoutMs: 4000, retries: 1 });

export const RELIABILITY_PLUGIN_NAME = 'slots-host-reliability';

export class QuarantinedRemoteError extends Error {
  constructor(
    readonly remote: string,
    readonly reason: string,
  ) {
    super(`${reason} ${HOST_MESSAGES.remoteQuarantined(remote)}`);
    this.name = 'QuarantinedRemoteError';
  }
}

export interface ReliabilityPlugin extends ModuleFederationRuntimePlugin {
  isQuarantined(remote: string): boolean;
  /** Why a remote is quarantined, or undefined when it is not. */
  quarantineReason(remote: string): string | undefined;
}

function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  return controller.signal;
}

/**
 * A one-line message. Runtime errors read `[ Federation Runtime ]: <what> #CODE`, then args, a documentation link
 * and `Original Error Message:` with the cause; the first line and the cause are what a reader needs.
 */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const summary = (text.split('\n')[0] ?? '').replace(/^\[ Federation Runtime \]:\s*/, '').trim();
  const cause = text.split('Original Error Message:')[1]?.trim().split('\n')[0]?.trim();
  return [summary, cause].filter(Boolean).join(' ') || 'Unknown error';
}

function remoteOfId(id: string): string {
  return id.split('/')[0] ?? id;
}

function componentOfExpose(expose: string | undefined, id: string): string {
  const fromExpose = expose?.replace(/^\.\//, '');
  return fromExpose || id.split('/').slice(1).join('/') || id;
}

/**
 * Makes remote loading bounded and failure-contained, as a Module Federation runtime plugin:
 * - `fetch`: each `mf-manifest.json` request times out (AbortSignal) and is retried `retries` times;
 * - `createScript` / `loadEntryError`: each `remoteEntry.js` script times out and is retried `retries` times;
 * - `errorLoadRemote`: instead of throwing, `loadRemote` resolves to a fallback module;
 * - after a manifest or entry failure the remote is quarantined: `beforeRequest` refuses it without any request,
 *   for the rest of the page's life. Each quarantine is logged once, with what failed.
 */
export function createReliabilityPlugin(options: ReliabilityOptions): ReliabilityPlugin {
  const fetchManifest: FetchManifest = options.fetch ?? ((url, init) => fetch(url, init));
  const log = options.log ?? ((message, failure) => console.error(message, failure));
  const attempts = 1 + Math.max(0, options.retries);
  /** Transport failures seen while loading, not yet turned into a quarantine. */
  const pending = new Map<string, RemoteFailure>();
  /** Quarantined remote -> why. */
  const quarantine = new Map<string, string>();

  const describeFailure = (failure: RemoteFailure) =>
    `Remote "${failure.remote}" could not be loaded: ${failure.stage} ${failure.url} failed after ${failure.attempts} ` +
    `attempt${failure.attempts === 1 ? '' : 's'} (${failure.error}).`;

  return {
    name: RELIABILITY_PLUGIN_NAME,

    isQuarantined(remote) {
      return quarantine.has(remote);
    },

    quarantineReason(remote) {
      return quarantine.get(remote);
    },

    // The loader checks the quarantine before asking the runtime; this also covers any other loadRemote caller.
    async beforeRequest(args) {
      const remote = remoteOfId(args.id);
      const reason = quarantine.get(remote);
      if (reason !== undefined) throw new QuarantinedRemoteError(remote, reason);
      return args;
    },

    async fetch(url, init, remoteInfo) {
      let lastError = 'no attempt made';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const signal = timeoutSignal(options.manifestTimeoutMs);
        try {
          const response = await fetchManifest(url, { ...init, signal });
          if (response.ok) return response;
          lastError = `HTTP ${response.status}`;
        } catch (error) {
          lastError = signal.aborted ? `timed out after ${options.manifestTimeoutMs} ms` : messageOf(error);
        }
      }
      const remote = remoteInfo?.name ?? url;
      pending.set(remote, { remote, stage: 'manifest', url, attempts, error: lastError });
      throw new Error(`Manifest ${url} of remote "${remote}" failed: ${lastError}.`);
    },

    createScript({ remoteInfo }) {
      // Only the remote entry scripts are bounded here; the default is 20 s.
      return remoteInfo ? { timeout: options.entryTimeoutMs } : undefined;
    },

    loadEntryError({ getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey }) {
      // One bounded retry of the entry script; the getRemoteEntry given here does not come back to this hook.
      const retry = async () => {
        for (let attempt = 2; attempt <= attempts; attempt++) {
          delete globalLoading[uniqueKey];
          try {
            const exports = await getRemoteEntry({ origin, remoteInfo, remoteEntryExports });
            if (exports) return exports;
          } catch {
            // Recorded by afterLoadEntry below.
          }
        }
        return undefined;
      };
      // The hook's declared type nests the promise; the runtime awaits whatever is returned.
      return new Promise<ReturnType<typeof retry> | undefined>((resolve) => resolve(retry()));
    },

    async afterLoadEntry({ remoteInfo, error, recovered }) {
      if (error === undefined || recovered) return;
      pending.set(remoteInfo.name, {
        remote: remoteInfo.name,
        stage: 'entry',
        url: remoteInfo.entry,
        attempts,
        error: messageOf(error),
      });
    },

    async errorLoadRemote(args) {
      // Earlier lifecycles (manifest, share resolution) expect other values: let their errors reach `onLoad`.
      if (args.lifecycle !== 'onLoad') return undefined;
      const remote = args.remote?.name ?? remoteOfId(args.id);
      const component = componentOfExpose(args.expose, args.id);

      const earlier = quarantine.get(remote);
      if (earlier !== undefined) {
        return options.fallbackModule({ remote, component, error: earlier, quarantined: true });
      }
      const transport = pending.get(remote);
      if (transport) {
        pending.delete(remote);
        const reason = describeFailure(transport);
        quarantine.set(remote, reason);
        log(HOST_MESSAGES.remoteFailureLog, transport);
        return options.fallbackModule({ remote, component, error: reason, quarantined: true });
      }
      // The remote answered, but this module failed (missing expose, a factory that threw): only it falls back.
      return options.fallbackModule({ remote, component, error: messageOf(args.error), quarantined: false });
    },
  };
}

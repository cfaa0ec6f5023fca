/**
 * The host build's copy of `@module-federation/sdk`'s environment module (`dist/env.js`), which
 * build/host-federation-plugin.ts puts in its place: the same exports and answers, except that the debug switch in
 * localStorage (`FEDERATION_DEBUG`, what the federation devtools set) is read only once the page has rendered
 * (readFederationDebugSwitch). The runtime asks for it while its module is evaluated, in the host's entry, to decide
 * whether to publish its constructor for the devtools: that was the page's first storage read, which makes Chromium
 * open the origin's storage before anything renders (about a tenth of the federation runtime's own work on the
 * way to the first render, docs/operators/performance.md). The bundled page reads no storage before it renders.
 * Until the switch is read, a warning the runtime logs carries no stack trace even when the switch is on.
 */

/** Replaced by the build (the federation plugin's `experiments.optimization.target`); undefined elsewhere. */
declare const ENV_TARGET: string | undefined;
/** A build-time switch some builds define; undefined in the host's. */
declare const FEDERATION_DEBUG: unknown;

/** The localStorage key of the runtime's debug switch (the sdk's BROWSER_LOG_KEY). */
export const FEDERATION_DEBUG_KEY = 'FEDERATION_DEBUG';

export const isBrowserEnvValue: boolean =
  typeof ENV_TARGET !== 'undefined'
    ? ENV_TARGET === 'web'
    : typeof window !== 'undefined' && typeof window.document !== 'undefined';

export function isBrowserEnv(): boolean {
  return isBrowserEnvValue;
}

export function isReactNativeEnv(): boolean {
  return typeof navigator !== 'undefined' && navigator?.product === 'ReactNative';
}

/** Whether the storage switch may be read yet: not before the page has rendered. */
let storageSwitchReadable = false;

function isBrowserDebug(): boolean {
  if (!storageSwitchReadable) return false;
  try {
    if (isBrowserEnv() && window.localStorage) return Boolean(window.localStorage.getItem(FEDERATION_DEBUG_KEY));
  } catch {
    return false;
  }
  return false;
}

/** `process.env` where there is one (Node, Jest); none in the browser. */
function processEnv(): Record<string, string | undefined> {
  return typeof process !== 'undefined' && process.env ? (process.env as Record<string, string | undefined>) : {};
}

export function isDebugMode(): boolean {
  const fromProcess = processEnv()[FEDERATION_DEBUG_KEY];
  if (fromProcess) return Boolean(fromProcess);
  if (typeof FEDERATION_DEBUG !== 'undefined' && Boolean(FEDERATION_DEBUG)) return true;
  return isBrowserDebug();
}

export const getProcessEnv = (): Record<string, string | undefined> => processEnv();

/**
 * From now on the debug switch in localStorage counts, as it did from the start with the sdk's own module; returns
 * whether debugging is on. The host calls it once its shell has rendered (federation-debug.ts).
 */
export function readFederationDebugSwitch(): boolean {
  storageSwitchReadable = true;
  return isDebugMode();
}

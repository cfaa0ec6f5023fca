import path from 'node:path';
import { BROWSER_LOG_KEY } from '@module-federation/sdk';
// Sets up the page's `__FEDERATION__` global, as the host's entry does.
import '@module-federation/runtime-core';

/** The sdk's own environment module, which the host build replaces with federation-env.ts. */
const SDK_ENV = path.join(path.dirname(require.resolve('@module-federation/sdk')), 'env.cjs');

type FederationEnv = typeof import('./federation-env');
type FederationDebug = typeof import('./federation-debug');
type RuntimeCore = typeof import('@module-federation/runtime-core');

/** A fresh copy of the module: the switch is read once per page, and each test is a page. */
function freshModules(): { env: FederationEnv; debug: FederationDebug; runtimeCore: RuntimeCore } {
  let modules: { env: FederationEnv; debug: FederationDebug; runtimeCore: RuntimeCore } | undefined;
  jest.isolateModules(() => {
    modules = {
      env: jest.requireActual<FederationEnv>('./federation-env'),
      debug: jest.requireActual<FederationDebug>('./federation-debug'),
      runtimeCore: jest.requireActual<RuntimeCore>('@module-federation/runtime-core'),
    };
  });
  return modules!;
}

function federationGlobal(): Record<string, unknown> {
  return (globalThis as unknown as { __FEDERATION__: Record<string, unknown> }).__FEDERATION__;
}

describe('the host build’s copy of the federation sdk’s environment module', () => {
  let processSwitch: string | undefined;

  beforeEach(() => {
    // The test runs in Node, where the process switch would decide before the storage switch.
    processSwitch = process.env[BROWSER_LOG_KEY];
    delete process.env[BROWSER_LOG_KEY];
    localStorage.clear();
    delete federationGlobal().__DEBUG_CONSTRUCTOR__;
  });

  afterEach(() => {
    jest.restoreAllMocks();
    if (processSwitch !== undefined) process.env[BROWSER_LOG_KEY] = processSwitch;
    localStorage.clear();
  });

  it('exports every name the sdk’s module does, for the same switch', () => {
    const sdkEnv = jest.requireActual<Record<string, unknown>>(SDK_ENV);
    const { env } = freshModules();
    for (const name of Object.keys(sdkEnv))
      expect(typeof (env as Record<string, unknown>)[name]).toBe(typeof sdkEnv[name]);
    expect(env.FEDERATION_DEBUG_KEY).toBe(BROWSER_LOG_KEY);
    expect(env.isBrowserEnv()).toBe(true);
    expect(env.isReactNativeEnv()).toBe(false);
  });

  it('reads no storage for the switch until the page has rendered, then answers as the sdk does', () => {
    localStorage.setItem(BROWSER_LOG_KEY, '1');
    const getItem = jest.spyOn(Storage.prototype, 'getItem');
    const { env } = freshModules();

    expect(env.isDebugMode()).toBe(false);
    expect(getItem).not.toHaveBeenCalled();

    expect(env.readFederationDebugSwitch()).toBe(true);
    expect(getItem).toHaveBeenCalledWith(BROWSER_LOG_KEY);
    expect(env.isDebugMode()).toBe(true);
    localStorage.removeItem(BROWSER_LOG_KEY);
    expect(env.isDebugMode()).toBe(false);
  });

  it('still takes the process switch at once where there is one', () => {
    process.env[BROWSER_LOG_KEY] = '1';
    const getItem = jest.spyOn(Storage.prototype, 'getItem');
    const { env } = freshModules();
    expect(env.isDebugMode()).toBe(true);
    expect(getItem).not.toHaveBeenCalled();
  });

  it('publishes the runtime’s constructor for the devtools once the page has rendered, with the switch on', () => {
    localStorage.setItem(BROWSER_LOG_KEY, 'true');
    const { debug, runtimeCore } = freshModules();
    expect(federationGlobal().__DEBUG_CONSTRUCTOR__).toBeUndefined();
    debug.applyFederationDebugSwitch();
    expect(federationGlobal().__DEBUG_CONSTRUCTOR__).toBe(runtimeCore.ModuleFederation);
  });

  it('publishes nothing with the switch off', () => {
    const { debug } = freshModules();
    debug.applyFederationDebugSwitch();
    expect(federationGlobal().__DEBUG_CONSTRUCTOR__).toBeUndefined();
  });
});

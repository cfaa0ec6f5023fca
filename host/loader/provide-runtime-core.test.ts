import * as runtimeCore from '@module-federation/runtime-core';
import provideRuntimeCore, { EXTERNAL_RUNTIME_GLOBAL } from './provide-runtime-core';
import { SINGLETON_SHARES_PLUGIN_NAME } from './singleton-shares';

describe('provideRuntimeCore', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, EXTERNAL_RUNTIME_GLOBAL);
  });

  it('publishes the host runtime core under the global the remotes are built to read, before the host starts', () => {
    const plugin = provideRuntimeCore();
    expect(EXTERNAL_RUNTIME_GLOBAL).toBe('_FEDERATION_RUNTIME_CORE');
    expect((globalThis as Record<string, unknown>)[EXTERNAL_RUNTIME_GLOBAL]).toBeUndefined();

    const args = { options: { name: 'host' } };
    expect(plugin.beforeInit?.(args as never)).toBe(args);

    const published = (globalThis as Record<string, unknown>)[EXTERNAL_RUNTIME_GLOBAL] as typeof runtimeCore;
    // The same module (compared by its exports: the test's import may get its own namespace wrapper).
    expect(published.ModuleFederation).toBe(runtimeCore.ModuleFederation);
    // What a remote entry built with externalRuntime uses from it.
    expect(typeof published.ModuleFederation).toBe('function');
    expect(published.CurrentGlobal).toBe(globalThis);
    // Every instance made on it from now on (each remote's) resolves React's singletons without the semver parser.
    const globalPlugins = published.Global.__FEDERATION__.__GLOBAL_PLUGIN__ as Array<{ name: string }>;
    expect(globalPlugins.map((registered) => registered.name)).toContain(SINGLETON_SHARES_PLUGIN_NAME);
  });
});

import * as runtimeCore from '@module-federation/runtime-core';
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime-core';
import { singletonSharesPlugin } from './singleton-shares';

/**
 * The global the remotes' builds read the federation runtime from (webpack.config.ts builds them with
 * `experiments.externalRuntime`, which leaves `@module-federation/runtime-core` out of each remoteEntry.js).
 */
export const EXTERNAL_RUNTIME_GLOBAL = '_FEDERATION_RUNTIME_CORE';

/**
 * A runtime plugin of the host build (webpack.config.ts `runtimePlugins`): before the host's federation instance
 * starts, it publishes the host's own copy of the runtime core as that global, so every remote runs on it instead of
 * shipping and evaluating a copy of its own (about 67 KB less per remote entry). The package's
 * `provideExternalRuntime` option does the same through its CommonJS build, which would put a second copy of the
 * runtime core into the host instead. It also registers the singleton shares plugin (singleton-shares.ts) globally,
 * so the instance each remote's entry creates on this runtime core resolves React without the semver parser too
 * (the host's own instance has it as a runtime plugin of its build, under the same name, so it is not added twice).
 */
export default function provideRuntimeCore(): ModuleFederationRuntimePlugin {
  return {
    name: 'slots-host-provide-runtime-core',
    beforeInit(args) {
      (globalThis as Record<string, unknown>)[EXTERNAL_RUNTIME_GLOBAL] = runtimeCore;
      runtimeCore.registerGlobalPlugins([singletonSharesPlugin()]);
      return args;
    },
  };
}

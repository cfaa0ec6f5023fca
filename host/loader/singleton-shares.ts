import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime-core';

export const SINGLETON_SHARES_PLUGIN_NAME = 'slots-host-singleton-shares';

const PLAIN_VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const CARET_RANGE = /^\^(\d+)\.(\d+)\.(\d+)$/;

/**
 * Whether a plain version (`19.2.0`) satisfies a plain caret range (`^19.2.0`), by comparing numbers; undefined for
 * anything else (pre-releases, other ranges, a version that does not satisfy it), which the runtime's own semver
 * check then decides as ever. Caret semantics: `^X.Y.Z` allows changes that do not modify the left-most non-zero
 * part (`^1.2.3` := `>=1.2.3 <2.0.0`, `^0.2.3` := `>=0.2.3 <0.3.0`, `^0.0.3` := `>=0.0.3 <0.0.4`).
 */
export function caretSatisfied(version: string, range: string): true | undefined {
  const v = PLAIN_VERSION.exec(version);
  const r = CARET_RANGE.exec(range);
  if (!v || !r) return undefined;
  const [major, minor, patch] = [Number(v[1]), Number(v[2]), Number(v[3])];
  const [rMajor, rMinor, rPatch] = [Number(r[1]), Number(r[2]), Number(r[3])];
  if (major !== rMajor) return undefined;
  let satisfied: boolean;
  if (rMajor > 0) satisfied = minor > rMinor || (minor === rMinor && patch >= rPatch);
  else if (rMinor > 0) satisfied = minor === rMinor && patch >= rPatch;
  else satisfied = minor === 0 && patch === rPatch;
  return satisfied ? true : undefined;
}

type ResolveShareArgs = Parameters<NonNullable<ModuleFederationRuntimePlugin['resolveShare']>>[0];

/**
 * Resolves a singleton share (React and its entry points, the only ones the host and the kit's remotes share)
 * without the runtime's semver parser when its answer is certain: the singleton found in the share scope has a plain
 * version that satisfies a plain caret range (`^19.2.0`), or no version is required. The runtime's parser builds
 * each of its regular expressions anew on every check (a dozen per check, one check per shared module and
 * consumer: the host's and each remote's React, react-dom and JSX runtimes), which a Chromium profile of the
 * dashboard put at about a tenth of the federation runtime's time before the first render. Everything else
 * (non-singletons, tree shaking, other ranges, a version that does not satisfy the range and must be warned of) goes
 * to the runtime's own resolver, unchanged. Registered on the host's instance and, globally, on every remote's
 * (provide-runtime-core.ts), since each remote resolves its own consumption of React.
 */
export function singletonSharesPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: SINGLETON_SHARES_PLUGIN_NAME,
    resolveShare(args: ResolveShareArgs) {
      const { shareScopeMap, scope, pkgName, version, shareInfo } = args;
      const config = shareInfo.shareConfig;
      if (!config?.singleton || shareInfo.treeShaking || !version) return args;
      const required = config.requiredVersion;
      if (typeof required === 'string' && caretSatisfied(version, required) !== true) return args;
      const shared = shareScopeMap[scope]?.[pkgName]?.[version];
      if (!shared) return args;
      // What the runtime's resolver returns for a satisfied singleton without tree shaking.
      return { ...args, resolver: () => ({ shared, useTreesShaking: false }) };
    },
  };
}

/** The host build's runtime plugin (webpack.config.ts `runtimePlugins`): the host's own instance resolves so too. */
export default singletonSharesPlugin;

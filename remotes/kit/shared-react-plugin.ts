import path from 'node:path';
import type { Compilation, Compiler } from 'webpack';
import {
  SHARED_REACT_PACKAGES,
  SHARED_REACT_RANGE,
  sharedReactMismatch,
  type InstalledReact,
  type SharedReactPackage,
} from './shared-react';

/**
 * Fails a remote's build (production and development alike) when the React its project installed is not in the range
 * the host shares: such a build and its tests pass on the team's React, but the product renders the components with
 * its own, and they fail on every page. Each package is resolved as the build resolves it (the project's folder, then
 * the configuration's `resolve.modules`), and its version read from the package.json found there.
 */
export class SharedReactVersionPlugin {
  constructor(private readonly range = SHARED_REACT_RANGE) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.make.tapPromise(SharedReactVersionPlugin.name, async (compilation) => {
      const entries = await Promise.all(
        SHARED_REACT_PACKAGES.map(async (name) => [name, await installedVersion(compilation, name)] as const),
      );
      const mismatch = sharedReactMismatch(Object.fromEntries(entries) as InstalledReact, this.range);
      if (mismatch === undefined) return;
      const error = new webpack.WebpackError(mismatch);
      error.name = 'SharedReactVersionError';
      error.hideStack = true;
      compilation.errors.push(error);
    });
  }
}

/** The version in the package.json of `name` as the build resolves it from the project's folder; undefined if none. */
function installedVersion(compilation: Compilation, name: SharedReactPackage): Promise<string | undefined> {
  const resolver = compilation.resolverFactory.get('normal', { dependencyType: 'esm' });
  const context = compilation.compiler.context;
  return new Promise((resolve) => {
    resolver.resolve({}, context, name, {}, (error, _result, request) => {
      if (error || !request?.descriptionFilePath) {
        // Watched, so that installing the package starts a rebuild in `slots-remote dev`.
        compilation.missingDependencies.add(path.join(context, 'node_modules', name, 'package.json'));
        resolve(undefined);
        return;
      }
      compilation.fileDependencies.add(request.descriptionFilePath);
      const version = request.descriptionFileData?.version;
      resolve(typeof version === 'string' ? version : undefined);
    });
  });
}

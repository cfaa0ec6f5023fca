import { readFileSync } from 'node:fs';
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
 * React DOM's entry points the host does not share (only `react-dom` itself is): each holds a renderer of its own,
 * which a remote importing it would bundle (react-dom/client: some 60 KB gzip) and run against the host's React.
 */
const UNSHARED_REACT_DOM = /^react-dom\/(client|server|static|profiling|test-utils)(\.[a-z]+)?$/;

/**
 * Why importing `request` from `issuer` cannot work in the product, for the team: a second React DOM, which fails
 * against the host's React (`Minified React error #527` once the two versions differ, as a team's `npm install` of
 * the range soon makes them) and, even when it loads, renders a tree of its own that the host's context, error
 * boundary and portals do not reach.
 */
export function unsharedReactDomMessage(request: string, issuer: string): string {
  return (
    `${issuer} imports "${request}", which the host does not share: it would bundle a second React DOM that runs ` +
    "against the host's React and fails there (Minified React error #527 once their versions differ), whether " +
    "imported statically or with import(). A slot component renders inside the host's React tree: return its " +
    'elements instead of creating a root, and use createPortal from "react-dom" (shared) to render elsewhere on the ' +
    'page.'
  );
}

/**
 * Fails a remote's build (production and development alike) when the React its project installed is not in the range
 * the host shares: such a build and its tests pass on the team's React, but the product renders the components with
 * its own, and they fail on every page. Each package is resolved as the build resolves it (the project's folder, then
 * the configuration's `resolve.modules`), and its version read from the package.json found there. An import of one
 * of React DOM's renderers the host does not share (`react-dom/client`) fails it too, naming the file importing it.
 */
export class SharedReactVersionPlugin {
  constructor(private readonly range = SHARED_REACT_RANGE) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(SharedReactVersionPlugin.name, (compilation, { normalModuleFactory }) => {
      const said = new Set<string>();
      normalModuleFactory.hooks.beforeResolve.tap(SharedReactVersionPlugin.name, (data) => {
        if (!UNSHARED_REACT_DOM.test(data.request)) return;
        const issuer = data.contextInfo.issuer
          ? path.relative(compiler.context, data.contextInfo.issuer) || data.contextInfo.issuer
          : '(the build)';
        const message = unsharedReactDomMessage(data.request, issuer);
        if (said.has(message)) return;
        said.add(message);
        const error = new webpack.WebpackError(message);
        error.name = 'UnsharedReactDomError';
        error.hideStack = true;
        compilation.errors.push(error);
      });
    });
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

/**
 * The version in the package.json of `name` as the build resolves it from the project's folder; undefined if none.
 * Read from the package's own folder (`node_modules/<name>/package.json`), afresh at each build: the resolver's
 * description file is the nearest package.json above what it resolved, which during an `npm install` (the package's
 * files there, its package.json not yet) was the project's own, whose version was then taken for React DOM's and
 * kept by a watching `slots-remote dev` after the install finished.
 */
function installedVersion(compilation: Compilation, name: SharedReactPackage): Promise<string | undefined> {
  const resolver = compilation.resolverFactory.get('normal', { dependencyType: 'esm' });
  const context = compilation.compiler.context;
  return new Promise((resolve) => {
    resolver.resolve({}, context, name, {}, (error, result) => {
      const root = error || typeof result !== 'string' ? null : packageFolderOf(result, name);
      const file = path.join(root ?? path.join(context, 'node_modules', name), 'package.json');
      const version = root === null ? undefined : versionIn(file, name);
      // Watched either way, so that installing or changing the package starts a rebuild in `slots-remote dev`.
      if (version === undefined) compilation.missingDependencies.add(file);
      else compilation.fileDependencies.add(file);
      resolve(version);
    });
  });
}

/** The folder of package `name` that `file` (resolved from it) lies in: `…/node_modules/<name>`, or null. */
function packageFolderOf(file: string, name: string): string | null {
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at === -1 ? null : file.slice(0, at + marker.length - 1);
}

/** The version `file` gives, when it is package `name`'s package.json. */
function versionIn(file: string, name: string): string | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
    return data.name === name && typeof data.version === 'string' ? data.version : undefined;
  } catch {
    return undefined;
  }
}

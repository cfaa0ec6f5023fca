import { registerRemotes } from '@module-federation/enhanced/runtime';
import type { PlainRemote } from './plain-remote';

/** Where the bench server serves a remote of the build folder it is given (server/remotes/built-remotes.ts). */
export function plainManifestUrl(remote: string, pageUrl: string): string {
  return new URL(`/remotes/${remote}/mf-manifest.json`, pageUrl).href;
}

/**
 * The entry of the plain Module Federation host (bench/plain-federation/webpack.config.ts says what the plain side
 * is): what `@module-federation/enhanced`'s documentation has a host do. The remotes are registered with the runtime
 * by the URL of their `mf-manifest.json` (the runtime fetches each manifest, then the remote's entry it names), and
 * the application itself is behind the async boundary (`import('./bootstrap')`), where the runtime has set up the
 * shared React first. Left out, against the product's host/index.ts and host/startup/: nothing of the page is
 * started before the boundary (the product starts its API requests and the page's remote modules there), no
 * component's module is loaded before a slot renders it, no boot data of the server is read for the remotes.
 */
export function startPlainHost(remotes: readonly PlainRemote[]): void {
  registerRemotes(
    remotes.map((remote) => ({ name: remote.name, entry: plainManifestUrl(remote.name, window.location.href) })),
  );
  void import('./bootstrap').then(({ renderPlainHost }) => renderPlainHost(remotes));
}

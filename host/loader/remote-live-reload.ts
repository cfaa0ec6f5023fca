import type { RemoteDescriptor } from '../../shared';

/** The part of `EventSource` the live reload uses (jsdom has none; tests give their own). */
export interface BuildEventSource {
  addEventListener(type: 'build', listener: () => void): void;
  close(): void;
}

export interface LiveReloadOptions {
  open?: (url: string) => BuildEventSource;
  reload?: () => void;
}

/**
 * Live reload for remote teams: a remote served by `slots-remote dev` announces each rebuild on its `devEvents`
 * stream, and the page reloads to show it, with no server restart and no host rebuild. Only a development server
 * passes `devEvents` on, so production pages never open such a stream.
 * @returns closes the streams
 */
export function reloadOnRemoteRebuilds(
  remotes: readonly RemoteDescriptor[],
  options: LiveReloadOptions = {},
): () => void {
  const urls = [...new Set(remotes.flatMap((remote) => (remote.devEvents ? [remote.devEvents] : [])))];
  if (urls.length === 0) return () => undefined;
  const open = options.open ?? ((url: string) => new EventSource(url));
  const reload = options.reload ?? (() => window.location.reload());
  const sources = urls.map((url) => {
    const source = open(url);
    source.addEventListener('build', () => {
      console.info(`[slots] ${url} announced a new build; reloading.`);
      reload();
    });
    return source;
  });
  return () => sources.forEach((source) => source.close());
}

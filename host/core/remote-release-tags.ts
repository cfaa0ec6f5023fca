/**
 * The signed release (RemoteDescriptor.releaseTag) each remote of the page was registered with, as connectRegistries
 * learns it from the module loader: the slot events name it, so that the server counts them under the release this
 * page runs, which stays the same until the page reloads whatever the server serves meanwhile. A remote served as
 * configured has none.
 */
export const remoteReleaseTags = new Map<string, string>();

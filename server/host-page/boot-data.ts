import { BOOT_DATA_ELEMENT_ID, type BootData, type RemoteDescriptor } from '../../shared';
import type { BuiltRemoteFiles } from './built-remote-files';

/**
 * The remotes as the page registers them with the federation runtime: one this server builds (its files known,
 * `builtFiles`) by its entry script, whose name carries its content hash, instead of its manifest. The runtime then
 * fetches no manifest before the entry, a step that used to wait behind React's start-up on the main thread, and a
 * warm page asks the server for no remote file at all (entry and chunks are cached as immutable). A remote elsewhere
 * keeps its manifest: its entry's name is not known here.
 */
export function registeredRemotes(
  remotes: readonly RemoteDescriptor[],
  builtFiles: (remote: RemoteDescriptor) => BuiltRemoteFiles | null,
): RemoteDescriptor[] {
  return remotes.map((remote) => {
    const files = builtFiles(remote);
    return files?.loadableByEntry ? { ...remote, entry: files.entry } : remote;
  });
}

/**
 * The page's {@link BootData}: the remote descriptors, the components of its public slots, and whether failed
 * slots may show details (the server's mode).
 */
export function bootData(
  remotes: readonly RemoteDescriptor[],
  components: ReadonlyMap<string, string | null>,
  showSlotDetails: boolean,
): BootData {
  return {
    remotes: remotes.map((remote) => ({ ...remote })),
    components: [...components].map(([component, media]) => (media ? { component, media } : { component })),
    showSlotDetails,
  };
}

/**
 * The boot data as a JSON data block. Not a script the browser runs (the Content-Security-Policy allows none
 * inline): the host reads and parses its text. Escaped with {@link jsonForHtml}.
 */
export function renderBootData(data: BootData): string {
  return `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${jsonForHtml(JSON.stringify(data))}</script>`;
}

/**
 * JSON text made safe inside a `<script type="application/json">` element: `<`, `>`, `&` and the JavaScript line
 * separators become `\u` escapes, which JSON.parse reads back as the same characters, so no value can close the
 * element or be read as markup. Escaping is per character, so escaped parts can be joined into a larger document.
 */
export function jsonForHtml(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

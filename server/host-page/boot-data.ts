import { BOOT_DATA_ELEMENT_ID, type BootData, type RemoteDescriptor } from '../../shared';

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

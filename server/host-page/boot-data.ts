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
 * inline): the host reads and parses its text. `<`, `>`, `&` and the JavaScript line separators are escaped, so no
 * value can close the element or be read as markup.
 */
export function renderBootData(data: BootData): string {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${json}</script>`;
}

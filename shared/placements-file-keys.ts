// Its own module, not placements.ts: the shell imports that one (the editor's path) and would carry these, which only
// the placements editor's page (a chunk of its own) and the server use.

/** The top-level keys of a placements document: what an import keeps of a REMOTES_CONFIG file's top level. */
export const PLACEMENTS_TOP_KEYS: readonly string[] = ['remotes', 'locations'];

/** The top-level keys a REMOTES_CONFIG file has besides placements: an import drops them, and names them. */
export const FILE_ONLY_TOP_KEYS: readonly string[] = ['$schema', 'allowedOrigins'];

/**
 * The top-level keys of a file to import that neither a placements document nor a REMOTES_CONFIG file has (most
 * likely a misspelt `"remotes"` or `"locations"`): the import refuses the file, naming them (unknownTopKeysMessage).
 */
export function unknownTopKeys(file: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(file).filter((key) => !PLACEMENTS_TOP_KEYS.includes(key) && !FILE_ONLY_TOP_KEYS.includes(key));
}

/** Why an import is refused for such keys, said by the server and by the editor before it sends the file. */
export function unknownTopKeysMessage(keys: readonly string[]): string {
  const named = keys.map((key) => JSON.stringify(key)).join(', ');
  return (
    `Not imported: ${keys.length === 1 ? 'the top-level key' : 'the top-level keys'} ${named} ` +
    `${keys.length === 1 ? 'is' : 'are'} neither placements (${PLACEMENTS_TOP_KEYS.join(', ')}) nor of a ` +
    `REMOTES_CONFIG file (${FILE_ONLY_TOP_KEYS.join(', ')}, dropped on import). Correct the name (a misspelt ` +
    '"locations" would lose its allow-lists) or remove the key, then import again; the draft is unchanged.'
  );
}

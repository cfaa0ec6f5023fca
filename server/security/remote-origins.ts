/**
 * The origins a page must be allowed to load remote code from: those of the remotes' absolute entry URLs.
 * A relative entry (`/remotes/team_x/mf-manifest.json`) is served by this server, so 'self' already covers it.
 */
export function remoteOrigins(entries: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      continue; // relative: same origin
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
  }
  return [...origins].sort();
}

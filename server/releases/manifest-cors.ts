/**
 * Whether the product's pages may read a release's `mf-manifest.json`: the federation runtime fetches it in CORS mode
 * (without credentials), so a manifest on another origin than the pages must answer their origin's request with
 * `Access-Control-Allow-Origin` naming that origin or `*`, or every slot of the release fails in the browser once it
 * is in force. The server can ask as a page would only when it knows the pages' origin (PUBLIC_URL); the entry script
 * and its chunks load as plain scripts, which need no CORS.
 */

/** The Origin a page of `pageOrigin` sends for `manifestUrl`, or undefined when it sends none (the same origin). */
export function pageOriginAsking(manifestUrl: string, pageOrigin: string | undefined): string | undefined {
  if (pageOrigin === undefined) return undefined;
  return new URL(manifestUrl).origin === pageOrigin ? undefined : pageOrigin;
}

/**
 * What a browser on `pageOrigin` would refuse in the manifest's answer to its CORS request, said for the team, or
 * null when it may read it. The comparison is the browser's: `*`, or the origin exactly as the page sends it.
 */
export function manifestCorsRefusal(manifestUrl: string, response: Response, pageOrigin: string): string | null {
  const allowed = response.headers.get('access-control-allow-origin');
  if (allowed === '*' || allowed === pageOrigin) return null;
  const answered =
    allowed === null
      ? 'without Access-Control-Allow-Origin'
      : `with Access-Control-Allow-Origin ${JSON.stringify(allowed)}`;
  return (
    `${manifestUrl} answers a request from ${pageOrigin} (this product's pages, PUBLIC_URL) ${answered}, so no ` +
    'page there may read it and every slot of the release would fail: answer that origin (or *) with CORS on ' +
    `${new URL(manifestUrl).origin}`
  );
}

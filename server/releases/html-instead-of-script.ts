/**
 * How much of an entry script is read: enough to pass the whitespace a page may start with and see its first tag.
 * A script itself can be megabytes, and its start tells a page from a script.
 */
export const SCRIPT_START_BYTES = 1024;

const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** How an HTML document starts (after whitespace and a byte order mark); no script can start so. */
const HTML_START = /^<(?:!doctype|html)(?=[\s>])/i;
/** The likely cause, for the team: a file missing from the folder, answered by the origin's fallback page. */
const FALLBACK = " (is it missing from the folder, answered by the origin's fallback page?)";

/**
 * Why `response`, a 200 to the request for a remote entry script at `url`, is an HTML page and no script, or null.
 * An origin serving a single-page app answers a file it lacks with its index page, status 200: a check of the status
 * alone takes that page for the script, and every page of the product then fails to load the remote's container.
 * Told by the Content-Type, else by the first bytes (a page sent as text/plain, or without a type); the rest of the
 * body is not read. Nothing of the body is quoted: what a team's origin answers is not sent back.
 */
export async function htmlInsteadOfScript(url: string, response: Response): Promise<string | null> {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (HTML_MEDIA_TYPES.has(mediaType)) {
    await response.body?.cancel();
    return `${url} answered ${response.status} with Content-Type ${mediaType}: a page, not a script${FALLBACK}`;
  }
  // trimStart drops a byte order mark too (U+FEFF is whitespace to JavaScript).
  if (!HTML_START.test((await startOf(response)).trimStart())) return null;
  return `${url} answered ${response.status} with an HTML document, not a script${FALLBACK}`;
}

/** The first SCRIPT_START_BYTES of the body (or all of a shorter one) as text; the rest is cancelled unread. */
async function startOf(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < SCRIPT_START_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel();
  // A character cut at the limit decodes as a replacement character: only the start matters.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, SCRIPT_START_BYTES));
}

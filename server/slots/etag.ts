import { createHash } from 'node:crypto';

/** A strong validator derived from the bytes themselves, so every instance serving the same bytes agrees on it. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether `If-None-Match` names this ETag. RFC 9110 compares If-None-Match weakly, so `W/"x"` matches `"x"`;
 * `*` matches any current representation.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = etag.startsWith('W/') ? etag.slice(2) : etag;
  return header.split(',').some((part) => {
    const tag = part.trim();
    if (tag === '*') return true;
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === wanted;
  });
}

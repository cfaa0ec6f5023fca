import { createHmac, timingSafeEqual } from 'node:crypto';

/** What the signature is made for, so that a tag is never mistaken for another use of the session secret. */
const PURPOSE = 'slots release tag v1';
/** 128 bits of HMAC-SHA256, base64url: enough against guessing, short in every remotes list and event. */
const SIGNATURE_BYTES = 16;

/**
 * The release a page loads a remote from, signed by the server (`<version>.<signature>`): given with the page's
 * remotes (RemoteDescriptor.releaseTag) and carried back by its slot events, so that an event counts under the release
 * the page runs (a tab opened before a rollback runs the old release until it reloads), not under the one the server
 * serves the visitor now. Only the server can sign one, and it signs only releases it serves: a forged version or
 * tenant in an event's body is not read. A tag is the same for every visitor of a release, so one passed on names a
 * release its sender may not have been served: events naming the running canary count only from visitors it is
 * served to (slot-events.ts).
 *
 * Signed with the session secret (the current one; tags of the previous secrets are accepted during a rotation).
 * A tag does not expire: a release is immutable, and what it names stays true for as long as a tab runs it.
 */
export class ReleaseTags {
  private readonly keys: Buffer[];
  private readonly tags = new Map<string, string>();

  constructor(secrets: readonly string[]) {
    this.keys = secrets.map((secret) => createHmac('sha256', secret).update(PURPOSE).digest());
    if (this.keys.length === 0) throw new Error('ReleaseTags needs a secret.');
  }

  /** The tag of `version` of `remote` (computed once per release). */
  tag(remote: string, version: string): string {
    const id = `${remote}\0${version}`;
    let tag = this.tags.get(id);
    if (tag === undefined) {
      tag = `${version}.${signature(this.keys[0]!, remote, version).toString('base64url')}`;
      this.tags.set(id, tag);
    }
    return tag;
  }

  /** The version a tag names, when this server signed it for `remote`; null for anything else. */
  versionOf(remote: string, tag: unknown): string | null {
    if (typeof tag !== 'string' || tag.length > 200) return null;
    const dot = tag.lastIndexOf('.');
    if (dot <= 0) return null;
    const version = tag.slice(0, dot);
    const given = Buffer.from(tag.slice(dot + 1), 'base64url');
    if (given.length !== SIGNATURE_BYTES) return null;
    return this.keys.some((key) => timingSafeEqual(given, signature(key, remote, version))) ? version : null;
  }
}

function signature(key: Buffer, remote: string, version: string): Buffer {
  return createHmac('sha256', key).update(`${remote}\0${version}`).digest().subarray(0, SIGNATURE_BYTES);
}

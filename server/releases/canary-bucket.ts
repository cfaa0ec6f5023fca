import { createHash } from 'node:crypto';

/**
 * A user's bucket (0 to 99) for a remote's canary: a hash of (user id, remote), so the same person gets the same
 * answer on every page and every host, and different remotes' canaries reach different users.
 */
export function canaryBucket(userId: number, remote: string): number {
  return createHash('sha256').update(`${userId}\0${remote}`).digest().readUInt32BE(0) % 100;
}

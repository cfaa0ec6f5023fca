import { createHash, randomBytes } from 'node:crypto';
import type { StorageEngine } from '../storage/storage-engine';

/** A token just created: `token` is shown once and never stored (only its SHA-256 hash is). */
export interface CreatedTeamToken {
  id: string;
  remote: string;
  token: string;
  expiresAt: number | null;
}

/** What a presented token proves: the remote it may publish for, or why not. */
export type TokenCheck = { status: 'valid'; id: string; remote: string } | { status: 'invalid' };

/** The prefix of every team token: a scanner (or a person) can tell what leaked. */
const TOKEN_PREFIX = 'slt_';

/**
 * Team tokens: each scoped to one remote, stored as a SHA-256 hash (a random 32-byte secret needs no slow hash),
 * optionally expiring, revocable. A token is `slt_<id>_<secret>`; its id names it in the audit trail and in
 * `npm run token:revoke`, without revealing it.
 */
export class TeamTokenStore {
  constructor(private readonly engine: StorageEngine) {}

  async create(remote: string, expiresInMs: number | null): Promise<CreatedTeamToken> {
    const id = randomBytes(6).toString('hex');
    const token = `${TOKEN_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    const expiresAt = expiresInMs === null ? null : now + expiresInMs;
    await this.engine.db
      .insertInto('remote_tokens')
      .values({ id, remote, hash: hashOf(token), created_at: now, expires_at: expiresAt, revoked_at: null })
      .execute();
    return { id, remote, token, expiresAt };
  }

  /** Revokes the token `id`; resolves to its remote, or null when there is no such token (or it was revoked). */
  async revoke(id: string): Promise<string | null> {
    const row = await this.engine.db
      .updateTable('remote_tokens')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('remote')
      .executeTakeFirst();
    return row?.remote ?? null;
  }

  /** Whether `token` is a live token (known, not revoked, not expired), and for which remote. */
  async check(token: string): Promise<TokenCheck> {
    if (!token.startsWith(TOKEN_PREFIX)) return { status: 'invalid' };
    const row = await this.engine.db
      .selectFrom('remote_tokens')
      .select(['id', 'remote', 'expires_at', 'revoked_at'])
      .where('hash', '=', hashOf(token))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return { status: 'invalid' };
    if (row.expires_at !== null && Number(row.expires_at) <= Date.now()) return { status: 'invalid' };
    return { status: 'valid', id: row.id, remote: row.remote };
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

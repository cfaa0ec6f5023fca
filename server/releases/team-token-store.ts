import { createHash, randomBytes } from 'node:crypto';
import type { StorageEngine } from '../storage/storage-engine';

/** A token just created: `token` is shown once and never stored (only its SHA-256 hash is). */
export interface CreatedTeamToken {
  id: string;
  remote: string;
  token: string;
  expiresAt: number | null;
}

/**
 * A stored token as `npm run token:list` shows it: what names and dates it, never its hash (the secret's stand-in,
 * which no listing needs and which would let whoever reads the output test guessed tokens offline).
 */
export interface TeamTokenListing {
  id: string;
  remote: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/**
 * What a presented token proves: the remote it may publish for, or why not. A token whose whole text matches a stored
 * one (its secret included) that is expired or revoked says so, with when: the caller holds that token, so this tells
 * a team which of its tokens to replace without telling anyone else anything.
 */
export type TokenCheck =
  | { status: 'valid'; id: string; remote: string }
  | { status: 'expired' | 'revoked'; id: string; at: number }
  | { status: 'invalid' };

/** What the API answers a request whose token does not hold (401). */
export function tokenRefusalMessage(checked: Exclude<TokenCheck, { status: 'valid' }>): string {
  const needed = 'A valid team token is needed (Authorization: Bearer <token>).';
  if (checked.status === 'invalid') return needed;
  const when = new Date(checked.at).toISOString();
  return (
    `This team token (id ${checked.id}) ${checked.status === 'expired' ? 'expired' : 'was revoked'} at ${when}. ` +
    'Ask an operator for a new one (npm run token:add). ' +
    needed
  );
}

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

  /** Every token, revoked and expired ones included (an operator looks for the one to revoke), by remote, oldest first. */
  async list(): Promise<TeamTokenListing[]> {
    const rows = await this.engine.db
      .selectFrom('remote_tokens')
      .select(['id', 'remote', 'created_at', 'expires_at', 'revoked_at'])
      .orderBy('remote')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Number(): PostgreSQL's bigint columns come back as text.
    return rows.map((row) => ({
      id: row.id,
      remote: row.remote,
      createdAt: Number(row.created_at),
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    }));
  }

  /**
   * Whether `token` is a live token (known, not revoked, not expired), and for which remote. Looked up by its hash,
   * never compared with a stored secret: how long the lookup takes can tell at most how far the guess's SHA-256 agrees
   * with a stored hash, which brings no one closer to a token (that would take a preimage), so no constant-time
   * comparison is needed. How many guesses a client may make: team-token-throttle.ts.
   */
  async check(token: string): Promise<TokenCheck> {
    if (!token.startsWith(TOKEN_PREFIX)) return { status: 'invalid' };
    const row = await this.engine.db
      .selectFrom('remote_tokens')
      .select(['id', 'remote', 'expires_at', 'revoked_at'])
      .where('hash', '=', hashOf(token))
      .executeTakeFirst();
    if (!row) return { status: 'invalid' };
    if (row.revoked_at !== null) return { status: 'revoked', id: row.id, at: Number(row.revoked_at) };
    if (row.expires_at !== null && Number(row.expires_at) <= Date.now()) {
      return { status: 'expired', id: row.id, at: Number(row.expires_at) };
    }
    return { status: 'valid', id: row.id, remote: row.remote };
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

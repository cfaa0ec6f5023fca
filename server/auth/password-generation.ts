import { createHash } from 'node:crypto';

/**
 * Twelve characters of a SHA-256 of a stored password hash: the generation of the password that hash was written
 * with, which keys the account's sign-in counts (login-rate-limiter.ts). Enough to tell two apart, nothing to crack.
 */
export function passwordGenerationOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 12);
}

/** The columns of a `users` row that its password generation is made from. */
export interface GenerationRow {
  password_hash: string;
  generation_kept: string | null;
  generation_kept_while: string | null;
}

/**
 * The account's password generation: its hash's own (passwordGenerationOf), unless a sign-in since hashed the same
 * password again with stronger parameters and the hash is still the one it wrote, then the generation from before
 * (`generation_kept`, UserStore.rehashPassword), so that the failures counted before it still count. A new password,
 * by any release's host, is another hash, so the kept generation no longer counts and the counts start again.
 */
export function passwordGenerationOfRow(row: GenerationRow): string {
  const own = passwordGenerationOf(row.password_hash);
  return row.generation_kept !== null && row.generation_kept_while === own ? row.generation_kept : own;
}

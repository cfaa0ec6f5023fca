import type { Logger } from 'pino';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';
import { PasswordCheckGate } from './password-check-gate';
import {
  deriveShortfall,
  hashPassword,
  isReadableHash,
  needsRehash,
  unmatchableHash,
  verifyPassword,
  type ScryptParams,
} from './password-hash';
import type { StaffUser } from './staff-user';
import type { UserStore } from './user-store';

/**
 * The right password for a disabled account: 403 `account_disabled`, no session. Telling it to whoever proved the
 * password reveals nothing to a guesser; answered as a wrong password, the person kept trying until the sign-in limits
 * locked them out.
 */
export class AccountDisabledError extends HttpError {
  constructor(readonly username: string) {
    super('account_disabled', ERROR_MESSAGES.accountDisabled);
    this.name = 'AccountDisabledError';
  }
}

/** What one password check found: whether it matches, and the password's new hash when the stored one is outdated. */
interface CheckOutcome {
  matches: boolean;
  rehashed?: string;
}

/**
 * Checks a username and password. An unknown username costs the same as a wrong password: a dummy hash with the
 * current parameters is verified instead, so response time does not tell which accounts exist. The dummy is made with
 * the checker, with no derivation (unmatchableHash): made with one at the first unknown account's sign-in, it made that
 * first refusal after each start run two derivations, twice as slow as a wrong password; made with one at the start,
 * it held the start up by a derivation (seconds on a loaded machine).
 *
 * A stored hash made with other parameters (an earlier release's, or lighter ones) is verified with its own, which
 * may cost less than today's: a wrong password there is then made to cost the difference too (deriveShortfall), so
 * it takes the work of an unknown account's; a correct one is hashed again with today's parameters and stored, so
 * the account leaves the old hash behind at its first sign-in.
 *
 * A disabled account's password is checked as an enabled one's: a wrong one is refused the same way at the same cost,
 * and the right one is refused with AccountDisabledError (its hash left as it is).
 *
 * A stored hash that cannot be read (a hand-edited row, another tool's hash) matches no password: the account is
 * refused as a wrong password is, checked against the dummy hash like an unknown account (so at today's cost, and
 * with no error scrypt could throw), and logged once per account and hash for operators, who set a new password.
 */
export class CredentialChecker {
  /** What an unknown account's password is checked against: as costly to check as an account's current hash. */
  private readonly dummyHash: string;
  /** Accounts logged for a hash that cannot be read, with that hash: once each, not at every attempt. */
  private readonly unreadable = new Map<number, string>();

  constructor(
    private readonly users: UserStore,
    private readonly hashParams: ScryptParams,
    private readonly logger: Pick<Logger, 'error'>,
    /** Bounds the checks that run at once (each takes scrypt's memory and a thread of libuv's pool). */
    private readonly gate: PasswordCheckGate = new PasswordCheckGate(),
  ) {
    this.dummyHash = unmatchableHash(hashParams);
  }

  /**
   * The account when the password matches, otherwise null (whatever the reason). Throws AccountDisabledError when
   * it matches a disabled account's, PasswordChecksBusyError when
   * too many checks are running and waiting already, PasswordChecksShareError when `client` (its address, as
   * clientKey gives it) holds its share of them.
   */
  check(username: string, password: string, client: string): Promise<StaffUser | null> {
    return this.checkOnce(username, password, client, true);
  }

  private async checkOnce(
    username: string,
    password: string,
    client: string,
    upgrade: boolean,
  ): Promise<StaffUser | null> {
    const found = await this.users.findSignInCredentials(username);
    const stored = found && isReadableHash(found.passwordHash) ? found.passwordHash : undefined;
    if (found && stored === undefined) this.reportUnreadable(found.user, found.passwordHash);
    const outdated = stored !== undefined && needsRehash(stored, this.hashParams);
    const outcome = await this.gate.run(client, async (): Promise<CheckOutcome> => {
      const matches = await verifyPassword(password, stored ?? this.dummyHash, this.hashParams);
      if (!outdated) return { matches };
      if (!matches) {
        await deriveShortfall(password, stored, this.hashParams);
        return { matches };
      }
      const rehash = upgrade && !found!.disabled;
      return { matches, rehashed: rehash ? await hashPassword(password, this.hashParams) : undefined };
    });
    if (!found || stored === undefined || !outcome.matches) return null;
    if (found.disabled) throw new AccountDisabledError(found.user.username);
    if (outcome.rehashed === undefined) return found.user;
    const upgraded = await this.users.rehashPassword(found.user.id, stored, outcome.rehashed);
    if (upgraded) return upgraded;
    // The account changed since it was read (another sign-in upgraded it, a new password was set): the session must
    // carry the stamp of the hash stored now, so the password is checked again against that one, once.
    return this.checkOnce(username, password, client, false);
  }

  /** Tells operators, once per account and hash, which account's stored hash cannot be read (never the hash). */
  private reportUnreadable(user: StaffUser, hash: string): void {
    if (this.unreadable.get(user.id) === hash) return;
    this.unreadable.set(user.id, hash);
    this.logger.error(
      { user: user.username },
      'sign-in refused: the stored password hash of this account cannot be read; set a new password (user:add)',
    );
  }
}

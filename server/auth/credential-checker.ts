import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';
import { PasswordCheckGate, PasswordChecksBusyError, PasswordChecksShareError } from './password-check-gate';
import {
  deriveShortfall,
  hashPassword,
  isReadableHash,
  needsRehash,
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

/** The gate's client for the dummy's making at start-up: no address reads so (http/client-key.ts). */
const PREPARING = '(start-up)';

/** What one password check found: whether it matches, and the password's new hash when the stored one is outdated. */
interface CheckOutcome {
  matches: boolean;
  rehashed?: string;
}

/**
 * Checks a username and password. An unknown username costs the same as a wrong password: a dummy hash made with
 * the current parameters is verified instead, so response time does not tell which accounts exist.
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
  private dummyHash: Promise<string> | null = null;
  /** Accounts logged for a hash that cannot be read, with that hash: once each, not at every attempt. */
  private readonly unreadable = new Map<number, string>();

  constructor(
    private readonly users: UserStore,
    private readonly hashParams: ScryptParams,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
    /** Bounds the checks that run at once (each takes scrypt's memory and a thread of libuv's pool). */
    private readonly gate: PasswordCheckGate = new PasswordCheckGate(),
  ) {}

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
      // The dummy is made inside the gate too: its making is a hash's work, counted in the place of the first check
      // that needs it (the others at once wait for the same one, in their places, doing no work).
      const matches = await verifyPassword(password, stored ?? (await this.dummy()), this.hashParams);
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

  /**
   * Makes the dummy hash now, before any sign-in needs it: the start does (AuthModule), so that the first unknown
   * account's refusal after a start costs one derivation as every other does, not the making's too (it answered about
   * twice as slowly as a wrong password, telling that the account does not exist). Made in a place of the gate, as a
   * check's work is, should requests run already. Never rejects: when the gate has no place for it, or the making
   * fails (logged), the first check that needs the dummy makes it, and a failed making is tried again by the next.
   */
  async prepare(): Promise<void> {
    try {
      await this.gate.run(PREPARING, () => this.dummy());
    } catch (error) {
      if (error instanceof PasswordChecksBusyError || error instanceof PasswordChecksShareError) return;
      this.logger.warn(
        { err: error },
        'the dummy password hash could not be made; the first unknown sign-in tries again',
      );
    }
  }

  /**
   * Made once, by prepare() or else by the first check that needs it; a making that failed is tried again by the next
   * check rather than failing every unknown account's sign-in until a restart.
   */
  private dummy(): Promise<string> {
    if (this.dummyHash === null) {
      const making = hashPassword(randomBytes(16).toString('base64'), this.hashParams);
      this.dummyHash = making;
      making.catch(() => {
        if (this.dummyHash === making) this.dummyHash = null;
      });
    }
    return this.dummyHash;
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

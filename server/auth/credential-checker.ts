import { randomBytes } from 'node:crypto';
import { PasswordCheckGate } from './password-check-gate';
import { hashPassword, verifyPassword, type ScryptParams } from './password-hash';
import type { StaffUser } from './staff-user';
import type { UserStore } from './user-store';

/**
 * Checks a username and password. An unknown username costs the same as a wrong password: a dummy hash made with
 * the current parameters is verified instead, so response time does not tell which accounts exist.
 */
export class CredentialChecker {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserStore,
    private readonly hashParams: ScryptParams,
    /** Bounds the checks that run at once (each takes scrypt's memory and a thread of libuv's pool). */
    private readonly gate: PasswordCheckGate = new PasswordCheckGate(),
  ) {}

  /**
   * The account when the password matches, otherwise null (whatever the reason). Throws PasswordChecksBusyError when
   * too many checks are running and waiting already, PasswordChecksShareError when `client` (its address, as
   * clientKey gives it) holds its share of them.
   */
  async check(username: string, password: string, client: string): Promise<StaffUser | null> {
    const found = await this.users.findCredentials(username);
    const stored = found ? found.passwordHash : await this.dummy();
    const matches = await this.gate.run(client, () => verifyPassword(password, stored));
    return found && matches ? found.user : null;
  }

  /** Made on first use (not at start-up, which it would slow down). */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('base64'), this.hashParams);
    return this.dummyHash;
  }
}

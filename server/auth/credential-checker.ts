import { randomBytes } from 'node:crypto';
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
  ) {}

  /** The account when the password matches, otherwise null (whatever the reason). */
  async check(username: string, password: string): Promise<StaffUser | null> {
    const found = this.users.findCredentials(username);
    if (!found) {
      await verifyPassword(password, await this.dummy());
      return null;
    }
    return (await verifyPassword(password, found.passwordHash)) ? found.user : null;
  }

  /** Made on first use (not at start-up, which it would slow down). */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('base64'), this.hashParams);
    return this.dummyHash;
  }
}

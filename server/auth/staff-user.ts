/** A signed-in staff member, as `req.user` carries it. */
export interface StaffUser {
  id: number;
  username: string;
  displayName: string;
  /**
   * A fingerprint of the account's stored password hash: it changes whenever the password does. A session records
   * the one it signed in with, so a change of password ends every session opened before it. Never sent to clients.
   */
  credentialStamp: string;
  /** The account's roles (shared/releases.ts OPERATOR_ROLE); empty for staff without one. */
  roles: readonly string[];
}

declare global {
  // passport declares `Express.User` empty and types `req.user` with it; this is what our sessions hold.
  namespace Express {
    interface User extends StaffUser {}
  }
}

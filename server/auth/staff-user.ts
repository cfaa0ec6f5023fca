import type { StaffPermission } from '../../shared';

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
  /**
   * The account's own role, as a list (shared/staff-roles.ts); empty for an account without one. A tenant
   * membership's role wins over it while that tenant is current: what a request may do is its `StaffAccess`
   * (staff-access.ts), never these alone.
   */
  roles: readonly string[];
  /** Permissions granted to the account on top of its role's, in every tenant (shared/staff-permissions.ts). */
  grantedPermissions: readonly StaffPermission[];
}

declare global {
  // passport declares `Express.User` empty and types `req.user` with it; this is what our sessions hold.
  namespace Express {
    interface User extends StaffUser {}
  }
}

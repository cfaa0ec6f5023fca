/** A signed-in staff member, as `req.user` carries it. */
export interface StaffUser {
  id: number;
  username: string;
  displayName: string;
}

declare global {
  // passport declares `Express.User` empty and types `req.user` with it; this is what our sessions hold.
  namespace Express {
    interface User extends StaffUser {}
  }
}

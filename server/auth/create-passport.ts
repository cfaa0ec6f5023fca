import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { clientKey } from '../http/client-key';
import type { CredentialChecker } from './credential-checker';
import type { UserStore } from './user-store';

/** Name of the passport-local strategy. */
export const LOCAL_STRATEGY = 'local';

/** What a session keeps of its user: the id, and the credential stamp of the password it signed in with. */
interface SessionUser {
  id: number;
  credentials: string;
}

/**
 * A passport instance of its own (not the module-wide singleton), so several apps in one process (tests, two
 * instances) never share strategies or serializers. The session keeps the user id and the credential stamp of the
 * password it signed in with; the account is read back on every request (from a cache any write empties), so a
 * deleted account, and every session opened before a change of password, is signed out at its next request —
 * whatever store holds the sessions.
 */
export function createPassport(users: UserStore, checker: CredentialChecker): passport.Authenticator {
  const authenticator = new passport.Authenticator();
  authenticator.use(
    LOCAL_STRATEGY,
    new LocalStrategy({ session: true, passReqToCallback: true }, (req, username, password, done) => {
      checker.check(username, password, clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown')).then(
        (user) => done(null, user ?? false),
        (error: unknown) => done(error),
      );
    }),
  );
  authenticator.serializeUser((user, done) => {
    const kept: SessionUser = { id: user.id, credentials: user.credentialStamp };
    done(null, kept);
  });
  authenticator.deserializeUser((kept: unknown, done) => {
    const session = kept as Partial<SessionUser> | null;
    if (typeof session?.id !== 'number' || typeof session.credentials !== 'string') {
      // Not a session this server wrote (or one from before credential stamps): signed out.
      done(null, false);
      return;
    }
    users.findById(session.id).then(
      (user) => done(null, user && user.credentialStamp === session.credentials ? user : false),
      (error: unknown) => done(error),
    );
  });
  return authenticator;
}

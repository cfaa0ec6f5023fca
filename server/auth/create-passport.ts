import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import type { CredentialChecker } from './credential-checker';
import type { UserStore } from './user-store';

/** Name of the passport-local strategy. */
export const LOCAL_STRATEGY = 'local';

/**
 * A passport instance of its own (not the module-wide singleton), so several apps in one process (tests, two
 * instances) never share strategies or serializers. The session keeps only the user id; the account is read back on
 * every request, so a deleted account is signed out at once.
 */
export function createPassport(users: UserStore, checker: CredentialChecker): passport.Authenticator {
  const authenticator = new passport.Authenticator();
  authenticator.use(
    LOCAL_STRATEGY,
    new LocalStrategy({ session: true }, (username, password, done) => {
      checker.check(username, password).then(
        (user) => done(null, user ?? false),
        (error: unknown) => done(error),
      );
    }),
  );
  authenticator.serializeUser((user, done) => done(null, user.id));
  authenticator.deserializeUser((id: unknown, done) => {
    if (typeof id !== 'number') {
      done(null, false);
      return;
    }
    try {
      done(null, users.findById(id) ?? false);
    } catch (error) {
      done(error);
    }
  });
  return authenticator;
}

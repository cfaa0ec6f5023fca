import { Link } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../../shared';
import { useSession } from '../../core';
import { PageHeading } from '../../layout/page-heading';
import { SessionUnavailable } from '../../layout/session-unavailable';
import { useSignOut } from '../../layout/use-sign-out';

/**
 * `/logout` opened in the browser (a bookmark, a typed address, a link from another tool): signing out is a POST, so
 * the address asks first, with the header's own button, rather than sign anyone out by a mere visit (another site
 * could make the browser open it). A visitor signed out already is told so, with the way to sign in.
 */
export function SignOutPage() {
  const session = useSession();
  const { signOut, signingOut } = useSignOut();

  if (session.status === 'unavailable') return <SessionUnavailable />;
  // Only for the moment GET /me takes: the page carries its session data, so it is usually known at once.
  if (session.status === 'loading') return null;
  const { user } = session;
  return (
    <div className="page">
      <PageHeading title="Sign out" />
      {user ? (
        <section className="card">
          <p>
            You are signed in as <strong>{user.displayName}</strong> ({user.username}).
          </p>
          <div className="form__footer">
            <button type="button" className="button" onClick={() => void signOut()} aria-disabled={signingOut}>
              Sign out
            </button>
            <Link to="/">Back to the dashboard</Link>
          </div>
        </section>
      ) : (
        <p>
          You are signed out. <Link to={SIGN_IN_PATH}>Sign in</Link>
        </p>
      )}
    </div>
  );
}

import { Fragment } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../shared';
import { useSession } from '../core';

/**
 * Guards the signed-in pages: while the session is unknown nothing protected renders; without one the visitor is
 * sent to the sign-in page (with the page to come back to). Pages remount when the path or the tenant changes, so no
 * data of another record or tenant stays on screen.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') {
    return (
      <p className="page-status" role="status">
        Checking your session…
      </p>
    );
  }
  if (session.status === 'anonymous') {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={SIGN_IN_PATH} replace state={{ from }} />;
  }
  return (
    <Fragment key={`${session.scope}:${location.pathname}`}>
      <Outlet />
    </Fragment>
  );
}

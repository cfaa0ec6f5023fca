import { Fragment, useRef } from 'react';
import { matchPath, Navigate, Outlet, useLocation } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../shared';
import { useSession } from '../core';
import type { SignInState } from '../pages/sign-in-page';

/** A record's own pages: after a tenant switch the record is not in the current tenant any more. */
const RECORD_PATHS = ['/resources/:resource/:id', '/resources/:resource/:id/edit'];

/**
 * Guards the signed-in pages: while the session is unknown nothing protected renders; without one the visitor is
 * sent to the sign-in page (with the page to come back to, and whether the session just ended). Pages remount
 * when the path or the tenant changes, so no data of another record or tenant stays on screen; a record page
 * whose tenant was switched away goes to its resource's list in the new tenant instead of "not found".
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const tenant = session.user?.currentTenant ?? null;
  // The tenant the current page was opened in. Updated only when the page or the user changes, so every render of
  // the same page after a switch (StrictMode renders twice) agrees that the tenant was switched.
  const openedIn = useRef({ pathname: location.pathname, identity: session.identity, tenant });
  if (openedIn.current.pathname !== location.pathname || openedIn.current.identity !== session.identity) {
    openedIn.current = { pathname: location.pathname, identity: session.identity, tenant };
  }
  const switched = openedIn.current.tenant !== tenant;

  if (session.status === 'loading') {
    return (
      <p className="page-status" role="status">
        Checking your session…
      </p>
    );
  }
  if (session.status === 'anonymous') {
    const state: SignInState = { from: `${location.pathname}${location.search}`, sessionEnded: session.expired };
    return <Navigate to={SIGN_IN_PATH} replace state={state} />;
  }
  const record = switched ? RECORD_PATHS.map((path) => matchPath(path, location.pathname)).find(Boolean) : null;
  if (record?.params.resource) {
    return <Navigate to={`/resources/${encodeURIComponent(record.params.resource)}`} replace />;
  }
  return (
    <Fragment key={`${session.scope}:${location.pathname}`}>
      <Outlet />
    </Fragment>
  );
}

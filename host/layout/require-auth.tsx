import { Fragment, useRef } from 'react';
import { matchPath, Navigate, Outlet, useLocation } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../shared';
import { useSession } from '../core';
import { listReturnAddress } from '../hooks/list-return-address';
import type { SignInState } from '../hooks/internal-path';
import { SessionUnavailable } from './session-unavailable';

/**
 * A resource's list and its records' pages. After a tenant switch a record is not in the current tenant any more,
 * and a list's address may name the old tenant's records (a relation filter) or pages: each becomes the list as it
 * was last left in the new tenant, or its first page.
 */
const RESOURCE_PATHS = ['/resources/:resource', '/resources/:resource/:id', '/resources/:resource/:id/edit'];

/**
 * Guards the signed-in pages: while the session is unknown nothing protected renders (when GET /me failed other than
 * with a 401, the outage is shown with a way to try again, never the sign-in page: the session may live on); without
 * one the visitor is sent to the sign-in page (with the page to come back to, and whether the session just ended). Pages remount
 * when the path or the tenant changes, so no data of another record or tenant stays on screen; a list or record
 * page whose tenant was switched away goes to the resource's list in the new tenant (see RESOURCE_PATHS).
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const tenant = session.user?.currentTenant ?? null;
  const address = `${location.pathname}${location.search}`;
  // The tenant the current address was opened in. Updated only when the address or the user changes, so every
  // render of the same address after a switch (StrictMode renders twice) agrees that the tenant was switched.
  const openedIn = useRef({ address, identity: session.identity, tenant });
  if (openedIn.current.address !== address || openedIn.current.identity !== session.identity) {
    openedIn.current = { address, identity: session.identity, tenant };
  }
  const switched = openedIn.current.tenant !== tenant;

  if (session.status === 'loading') {
    return (
      <p className="page-status" role="status">
        Checking your session…
      </p>
    );
  }
  if (session.status === 'unavailable') return <SessionUnavailable />;
  if (session.status === 'anonymous') {
    // The whole address, its #fragment too (a section of the page): what the visitor opened is where they come back.
    const from = `${location.pathname}${location.search}${location.hash}`;
    const state: SignInState = { from, sessionEnded: session.expired, endedBecause: session.ended };
    return <Navigate to={SIGN_IN_PATH} replace state={state} />;
  }
  const resource =
    switched && session.user
      ? RESOURCE_PATHS.map((path) => matchPath(path, location.pathname)).find(Boolean)?.params.resource
      : undefined;
  if (resource && session.user) {
    const list = listReturnAddress({ username: session.user.username, tenant: session.user.currentTenant, resource });
    // Already there (a list without search, never left otherwise in this tenant): nothing to move.
    if (list !== address) return <Navigate to={list} replace />;
  }
  return (
    <Fragment key={`${session.scope}:${location.pathname}`}>
      <Outlet />
    </Fragment>
  );
}

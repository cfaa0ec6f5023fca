import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { PLACEMENTS_PAGE_PATH, tenantName, type CurrentUser } from '../../shared';
import { useSession } from '../core';
import { useLeaveGuard } from '../hooks/unsaved-changes';
import { forgetDraftsExcept } from '../hooks/tab-drafts';

/**
 * Where the page held unsaved changes when the session changed: a record form (kept as a draft of this tab for that
 * record and tenant: resource-form.tsx), the placements editor (its document kept and shown again at once, whatever
 * the tenant: placements-kept-edits.ts), or nowhere.
 */
export type UnsavedWork = 'record' | 'placements' | null;

/**
 * What the page says when the session changed under it, outside this page: who, or which tenant, it shows now, why,
 * and what became of the unsaved changes it held. `before` is the user as the page showed them.
 */
export function sessionChangedMessage(before: CurrentUser, now: CurrentUser, unsaved: UnsavedWork): string {
  if (before.username !== now.username) {
    const discarded = unsaved ? ` The unsaved changes of ${before.displayName} on this page were discarded.` : '';
    return `${now.displayName} signed in in another tab: this tab is theirs now.${discarded}`;
  }
  const was = tenantName(before, before.currentTenant);
  const is = tenantName(now, now.currentTenant);
  // Not a tenant of theirs any more: an administrator removed the account from it, and the server fell back.
  const removed = !now.tenants.some((tenant) => tenant.id === before.currentTenant);
  const kept =
    unsaved === 'placements'
      ? ' Your unsaved changes to the placements were kept in this tab: the editor shows them again.'
      : unsaved === 'record' && removed
        ? ` Your unsaved changes were kept in this tab, for when your account works in ${was} again.`
        : unsaved === 'record'
          ? ` Your unsaved changes were kept in this tab: switch back to ${was} and open the same form again to save them.`
          : '';
  if (removed) return `Your account no longer belongs to ${was}: your session now works in ${is}.${kept}`;
  return `Your session now works in ${is}: it was switched from ${was} in another tab.${kept}`;
}

/**
 * Says why the page changed when another tab signed in as someone else or switched the tenant (the session store
 * follows it at once: see session-broadcast.ts), or the account was removed from the page's tenant (the session
 * store follows at the first read answered in another: createPageClient), until dismissed or the session changes here. Someone else signed in:
 * the drafts kept in this tab for others are forgotten, as when they sign in here (sign-in-page.tsx).
 */
export function SessionChangedNotice() {
  const session = useSession();
  const guard = useLeaveGuard();
  const { onExpire, user, changedElsewhere, revision } = session;
  const { pathname } = useLocation();
  const page = useRef(pathname);
  page.current = pathname;
  const shown = useRef(user);
  const hadUnsaved = useRef<UnsavedWork>(null);
  const [message, setMessage] = useState<string | null>(null);

  // Told before the page's forms unmount (and keep their drafts): whether there was anything to keep.
  useEffect(
    () =>
      onExpire(() => {
        if (!guard.unsaved()) hadUnsaved.current = null;
        else hadUnsaved.current = page.current === PLACEMENTS_PAGE_PATH ? 'placements' : 'record';
      }),
    [onExpire, guard],
  );

  useEffect(() => {
    const before = shown.current;
    shown.current = user;
    const unsaved = hadUnsaved.current;
    hadUnsaved.current = null;
    // Signed out there: the sign-in page says that the session ended. Signed in there: it moves on, as it does here.
    if (!changedElsewhere || !before || !user) {
      setMessage(null);
      return;
    }
    if (before.username !== user.username) forgetDraftsExcept(user.username);
    setMessage(sessionChangedMessage(before, user, unsaved));
  }, [revision, user, changedElsewhere]);

  return (
    <div className="session-changed-notice" role="status">
      {message && (
        <p className="notice notice--info inline">
          <span>{message}</span>
          <button type="button" className="button button--ghost button--small" onClick={() => setMessage(null)}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  );
}

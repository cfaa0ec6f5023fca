import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { UNSAVED_CHANGES_MESSAGE, useLeaveGuard } from '../hooks/unsaved-changes';

/**
 * Holds back a navigation to another page of the app while changes are unsaved, and asks the user. A change of
 * the query string or hash on the same page is not held back. Renders nothing; it must sit inside the router.
 */
export function UnsavedChangesPrompt() {
  const guard = useLeaveGuard();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => guard.unsaved() && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(UNSAVED_CHANGES_MESSAGE)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  return null;
}

import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../shared';
import { useSession, useSlotRuntime } from '../core';
import { useLeaveGuard } from '../hooks/unsaved-changes';
import { forgetDraftsExcept } from '../hooks/tab-drafts';
import { forgetListAddresses } from '../hooks/list-return-address';
import { forgetRecordPagesRead } from '../hooks/resource-definitions';
import type { SignInState } from '../hooks/internal-path';

/**
 * Signing out on purpose, from the header's button or the sign-out page: asks first when a form has unsaved
 * changes, leaves nothing of the user behind in this tab (unsaved text, list searches, the record of the pages seen),
 * then shows the sign-in page. `signingOut` while the request runs, so a second click does nothing.
 */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const session = useSession();
  const navigate = useNavigate();
  const guard = useLeaveGuard();
  const { pageSlots } = useSlotRuntime();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    if (signingOut || !guard.confirmLeave()) return;
    forgetDraftsExcept(null);
    forgetListAddresses();
    forgetRecordPagesRead();
    pageSlots.clear();
    setSigningOut(true);
    try {
      await session.signOut();
    } finally {
      setSigningOut(false);
      const state: SignInState = { signedOut: true };
      navigate(SIGN_IN_PATH, { replace: true, state });
    }
  };
  return { signOut, signingOut };
}

import { RECORDS_WRITE, userMay, VIEWER_CANNOT_CHANGE_RECORDS } from '../../shared';
import { useSession } from '../core';

/**
 * Whether the signed-in account may create, save, delete and bulk-change records in the current tenant
 * (records:write, shared/staff-permissions.ts: everyone but a viewer there). The server refuses the others with 403
 * whatever the page shows; the pages ask this to say why instead of offering an action that would be refused.
 */
export function useMayChangeRecords(): boolean {
  return userMay(useSession().user, RECORDS_WRITE);
}

/** What a page shows a viewer in place of New, Save, Delete and the bulk actions. */
export function ReadOnlyRoleNotice() {
  return (
    <p className="notice notice--info" data-read-only-role="">
      {VIEWER_CANNOT_CHANGE_RECORDS}
    </p>
  );
}

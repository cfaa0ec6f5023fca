import type { StaffRole } from '../../shared';
import { createAccount } from '../../server/auth/account-change';
import { hashPassword } from '../../server/auth/password-hash';
import type { StorageEngine } from '../../server/storage/storage-engine';
import { FAST_HASH } from './test-app';

export const DEMO_MEMBER = 'ann';
export const DEMO_MEMBER_PASSWORD = 'a password for ann';

/**
 * Adds `ann` to a demo database, a member of both demo tenants: `role` her own, `tenantRole` hers in each tenant
 * (null: her own applies there). An operator by her own role administers wherever she is a member; an operator by
 * her tenants' roles alone administers nowhere else, such as in a tenant made after.
 */
export async function addDemoMember(
  engine: StorageEngine,
  { role, tenantRole }: { role: StaffRole | null; tenantRole: StaffRole | null },
): Promise<void> {
  await createAccount(engine, DEMO_MEMBER, await hashPassword(DEMO_MEMBER_PASSWORD, FAST_HASH), {
    role,
    memberships: [
      { tenant: 'acme', role: tenantRole },
      { tenant: 'globex', role: tenantRole },
    ],
  });
}

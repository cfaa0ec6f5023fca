import { nextCommand } from './next-command';

/**
 * What an account of no tenant is, said by the account commands, with the command that gives it one (its name in it,
 * to be pasted as printed): `no tenant (it cannot sign in)` said nothing of the way out, and the reach of its role
 * then said "in the other tenants too", as of an account at work there. `tenantsExist`: whether the database has a
 * tenant to give; without one, `--tenant <id>` alone named a tenant that was not there, which tenant:add makes first.
 */
export function noTenantHint(username: string, tenantsExist: boolean): string {
  const give = nextCommand('user:add', `${username} --keep-password --tenant <id>`);
  const way = tenantsExist
    ? give
    : `there is no tenant yet: create one with ${nextCommand('tenant:add', '<id>')}, then ${give}`;
  return `belongs to no tenant, so it cannot sign in until given one (${way})`;
}

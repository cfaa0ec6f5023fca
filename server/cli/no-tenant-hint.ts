import { nextCommand } from './next-command';

/**
 * What an account of no tenant is, said by the account commands, with the command that gives it one (its name in it,
 * to be pasted as printed): `no tenant (it cannot sign in)` said nothing of the way out, and the reach of its role
 * then said "in the other tenants too", as of an account at work there.
 */
export function noTenantHint(username: string): string {
  return (
    'belongs to no tenant, so it cannot sign in until given one ' +
    `(${nextCommand('user:add', `${username} --keep-password --tenant <id>`)})`
  );
}

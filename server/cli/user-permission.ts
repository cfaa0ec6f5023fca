/**
 * `npm run user:permission -- grant <username> <permission>...`, `... revoke <username> <permission>...`,
 * `... show <username>`: the permissions granted to an existing account on top of its roles'
 * (shared/staff-permissions.ts), in the database (PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH).
 * `show` prints the account's role, its grants, and per tenant the role and permissions in force there. Every host
 * counts a change at the account's next request; no password is asked. Revoking what the last account able to
 * administer needs is refused (administrators.ts).
 */
import { isStaffPermission, STAFF_PERMISSIONS } from '../../shared';
import { changeAccount } from '../auth/account-change';
import { LastAdministratorError } from '../auth/administrators';
import { accessIn } from '../auth/staff-access';
import { UnknownPermissionError, UserStore } from '../auth/user-store';
import { storageSettingsFromEnv } from '../env-config';
import { TenantStore } from '../tenants/tenant-store';
import { everyTenantReach } from './every-tenant-reach';
import { lastAdministratorMessage } from './last-administrator-message';
import { nextCommand } from './next-command';
import { noTenantHint } from './no-tenant-hint';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

export const USER_PERMISSION_USAGE =
  `usage: ${commandLine('user:permission', 'grant|revoke <username> <permission>...')}   |   ` +
  `${commandLine('user:permission', 'show <username>')}\npermissions: ${STAFF_PERMISSIONS.join(', ')}`;

async function main(args: readonly string[]): Promise<number> {
  const [action, username, ...permissions] = args;
  const problem = usageProblem(action, username, permissions);
  if (problem !== null || username === undefined) {
    process.stderr.write(`${problem ?? ''}${USER_PERMISSION_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    try {
      const users = new UserStore(engine);
      // What a revoke named that the account was never granted, as held when it was revoked (none for a grant).
      let notGranted: readonly string[] = [];
      if (action !== 'show') {
        // Named before the check: an unknown name is the mistake to say, whatever else the change would do.
        const unknown = permissions.find((permission) => !isStaffPermission(permission));
        if (unknown !== undefined) throw new UnknownPermissionError(unknown);
        const changed = await changeAccount(engine, username, {
          // Called with the grants as read in the change's transaction: what it names that is not there is said.
          grants: (held) => {
            if (action === 'grant') return [...held, ...permissions];
            notGranted = [...new Set(permissions.filter((permission) => !held.some((each) => each === permission)))];
            return held.filter((each) => !permissions.includes(each));
          },
        });
        if (!changed) {
          process.stderr.write(`There is no account "${username}" in ${where}. Nothing was changed.\n`);
          return 1;
        }
      }
      const user = await users.findByUsername(username);
      if (!user) {
        process.stderr.write(`There is no account "${username}" in ${where}.\n`);
        return 1;
      }
      // Said once revoked, not before: a refused revoke says its refusal alone. Revoking what was never granted
      // changes nothing: said, as the permission may come from a role instead.
      if (notGranted.length > 0) {
        process.stdout.write(
          `"${user.username}" had no grant of ${notGranted.join(', ')}: nothing to revoke there (a role may give it).\n`,
        );
      }
      const tenants = new TenantStore(engine);
      const memberships = await tenants.membershipsOf(user.id);
      const disabled = (await users.isDisabled(user.username))
        ? `; disabled: it cannot sign in (${nextCommand('user:enable', user.username)} gives it back)`
        : '';
      const lines = [
        `"${user.username}": role ${user.roles[0] ?? 'none (an editor)'}; granted: ${user.grantedPermissions.join(', ') || 'none'}${disabled}`,
        ...(memberships.tenants.length === 0
          ? [`  It ${noTenantHint(user.username, (await tenants.list()).length > 0)}.`]
          : []),
        ...memberships.tenants.map((tenant) => {
          const role = memberships.roles.get(tenant.id);
          const access = accessIn(user, role);
          const roleThere =
            role === undefined ? `${access.roles[0] ?? 'none'} (the account's)` : `${role} (membership)`;
          return `  ${tenant.id}: role ${roleThere}; may ${access.permissions.join(', ')}`;
        }),
      ];
      // Its tenants' lines say nothing of the others, which releases:manage and placements:edit reach all the same.
      const reach = await everyTenantReach(user, tenants);
      if (reach !== null) lines.push(reach);
      // Where, as every command says it: read from the wrong database, the account's grants would mislead.
      process.stdout.write(`${lines.join('\n')}\n(in ${where})\n`);
      return 0;
    } catch (error) {
      if (error instanceof LastAdministratorError) {
        process.stderr.write(`${lastAdministratorMessage(error)}\n`);
        return 1;
      }
      if (error instanceof UnknownPermissionError) {
        process.stderr.write(`${error.message} Nothing was changed.\n`);
        return 1;
      }
      throw error;
    }
  });
}

/**
 * What is wrong with the arguments, as a sentence and a line break before the usage, or null: a
 * mistyped action or a missing name was answered with the usage alone.
 */
function usageProblem(
  action: string | undefined,
  username: string | undefined,
  permissions: readonly string[],
): string | null {
  if (action !== 'grant' && action !== 'revoke' && action !== 'show') {
    return `${action === undefined ? 'Say' : `Unknown action "${action}":`} grant, revoke or show.\n`;
  }
  if (username === undefined || username.startsWith('-')) return `${action} needs a username.\n`;
  if (action === 'show') {
    return permissions.length === 0 ? null : `show takes a username only, got "${permissions[0]}" after it.\n`;
  }
  return permissions.length > 0 ? null : `Name the permission to ${action} after the username.\n`;
}

runCommand(
  'user:permission',
  () => main(process.argv.slice(2)),
  `Grants, revokes or shows the permissions an account holds on top of its roles'.\n${USER_PERMISSION_USAGE}`,
);

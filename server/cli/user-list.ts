/**
 * `npm run user:list [-- --tenant <id>]`: the staff accounts in the database (PostgreSQL at DATABASE_URL, else the
 * SQLite file at DATABASE_PATH), one line each: its username, its own role, its tenants with their memberships' roles,
 * its grants, whether it is disabled, and what its role or grants reach in tenants it is not a member of
 * (every-tenant-reach.ts). With --tenant, the members of that tenant only. Without it, the accounts of no tenant are
 * listed too: they cannot sign in. Nothing is changed; no password or hash is printed.
 */
import { storageSettingsFromEnv } from '../env-config';
import { type ListedAccount, UserStore } from '../auth/user-store';
import { type Memberships, TenantStore } from '../tenants/tenant-store';
import { commandLine } from '../process/operator-commands';
import { everyTenantReachOf } from './every-tenant-reach';
import { nextCommand } from './next-command';
import { noTenantHint } from './no-tenant-hint';
import { runCommand } from './run-command';
import { unknownTenantsMessage } from './unknown-tenants';
import { withStorage } from './with-storage';

const USER_LIST_USAGE = `usage: ${commandLine('user:list', '[--tenant <id>]')}`;

/**
 * The tenant to list the members of (null: every account), or what is wrong with the arguments, then the usage: a
 * typo (`--tenan acme`) or a second `--tenant` was answered with the usage alone, the operator left to spot the
 * difference.
 */
function parseUserListArgs(args: readonly string[]): { tenant: string | null } | { usage: string } {
  const refuse = (problem: string) => ({ usage: `${problem}\n${USER_LIST_USAGE}` });
  let tenant: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--tenant' || arg.startsWith('--tenant=')) {
      const value = arg === '--tenant' ? args[++i] : arg.slice('--tenant='.length);
      if (tenant !== null) return refuse("--tenant is given twice: it lists one tenant's members at a time.");
      if (value === undefined || value === '' || value.startsWith('-')) return refuse('--tenant needs a tenant id.');
      tenant = value;
    } else if (arg.startsWith('-')) {
      return refuse(`Unknown option ${arg}.`);
    } else {
      return refuse(`Unexpected "${arg}": name a tenant with --tenant.`);
    }
  }
  return { tenant };
}

/** One account's line: what `user:permission -- show` says of it, in short. */
async function accountLine(
  account: ListedAccount,
  memberships: Memberships | undefined,
  tenants: TenantStore,
  tenantsExist: boolean,
): Promise<string> {
  const tenantsOf = memberships?.tenants ?? [];
  const memberOf =
    tenantsOf.length === 0
      ? noTenantHint(account.username, tenantsExist)
      : `tenants: ${tenantsOf
          .map(({ id }) => {
            const role = memberships?.roles.get(id);
            return role === undefined ? id : `${id} (${role})`;
          })
          .join(', ')}`;
  const reach = account.disabled ? null : await everyTenantReachOf(account, tenants);
  const parts = [
    `role ${account.roles[0] ?? 'none (an editor)'}`,
    memberOf,
    `granted: ${account.grantedPermissions.join(', ') || 'none'}`,
    ...(reach === null
      ? []
      : [`${reach.permissions.join(', ')} in the other tenants too (${reach.outside.join(', ')})`]),
    ...(account.disabled ? ['disabled'] : []),
  ];
  return `${account.username}: ${parts.join('; ')}`;
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseUserListArgs(args);
  if ('usage' in parsed) {
    process.stderr.write(`${parsed.usage}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    const tenants = new TenantStore(engine);
    if (parsed.tenant !== null) {
      const known = await tenants.list();
      if (!known.some((tenant) => tenant.id === parsed.tenant)) {
        process.stderr.write(`${unknownTenantsMessage([parsed.tenant], known)}\n`);
        return 1;
      }
    }
    const memberships = await tenants.everyMembership();
    const accounts = (await new UserStore(engine).list()).filter(
      (account) =>
        parsed.tenant === null ||
        (memberships.get(account.id)?.tenants ?? []).some((tenant) => tenant.id === parsed.tenant),
    );
    if (accounts.length === 0) {
      const none =
        parsed.tenant === null
          ? `There is no staff account in ${where} yet: add one with ${nextCommand('user:add', '<username>')}.`
          : `Tenant "${parsed.tenant}" has no member in ${where}: add one with ` +
            `${nextCommand('user:add', `<username> --tenant ${parsed.tenant}`)}.`;
      process.stdout.write(`${none}\n`);
      return 0;
    }
    const tenantsExist = (await tenants.list()).length > 0;
    const lines: string[] = [];
    for (const account of accounts) {
      lines.push(await accountLine(account, memberships.get(account.id), tenants, tenantsExist));
    }
    const counted = `${accounts.length} account${accounts.length === 1 ? '' : 's'}`;
    const of = parsed.tenant === null ? '' : ` of tenant "${parsed.tenant}"`;
    // Where, as every command says it: read from the wrong database, the list would mislead.
    process.stdout.write(`${lines.join('\n')}\n(${counted}${of} in ${where})\n`);
    return 0;
  });
}

runCommand('user:list', () => main(process.argv.slice(2)), `Lists the staff accounts.\n${USER_LIST_USAGE}`, [
  '--tenant',
]);

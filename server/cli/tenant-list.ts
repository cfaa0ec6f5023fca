/**
 * `npm run tenant:list`: the tenants in the database (PostgreSQL at DATABASE_URL, else the SQLite file at
 * DATABASE_PATH), in the order they were made, each with its name and how many accounts belong to it (naming the
 * disabled ones), then the accounts that belong to none (they cannot sign in). Nothing is changed. Until now the tenants were seen only in the
 * refusal of a mistyped id, or in `tenant:add` run without arguments.
 */
import { storageSettingsFromEnv } from '../env-config';
import { type ListedAccount, UserStore } from '../auth/user-store';
import { TenantStore } from '../tenants/tenant-store';
import { commandLine } from '../process/operator-commands';
import { nextCommand } from './next-command';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';

const TENANT_LIST_USAGE = `usage: ${commandLine('tenant:list')}`;

async function main(args: readonly string[]): Promise<number> {
  if (args.length > 0) {
    // What is wrong first, as the other commands say it: the usage alone left the operator to guess.
    const words = args.map((arg) => `"${arg}"`).join(', ');
    process.stderr.write(`tenant:list takes no arguments, got ${words}.\n${TENANT_LIST_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    const tenants = new TenantStore(engine);
    const known = await tenants.list();
    const memberships = await tenants.everyMembership();
    const accounts = await new UserStore(engine).list();
    // Each tenant's members, and the usernames of those disabled: counted among the members, they were not told
    // apart from the members who can sign in (user:list marks them).
    const members = new Map<string, { count: number; disabled: string[] }>();
    for (const account of accounts) {
      for (const tenant of memberships.get(account.id)?.tenants ?? []) {
        const of = members.get(tenant.id) ?? { count: 0, disabled: [] };
        of.count += 1;
        if (account.disabled) of.disabled.push(account.username);
        members.set(tenant.id, of);
      }
    }
    const lines = known.map((tenant) => {
      const { count, disabled: off } = members.get(tenant.id) ?? { count: 0, disabled: [] };
      // Its only member disabled: "1 member, 1 of them disabled" counted a group of one.
      const disabledOnes =
        off.length === 0 ? '' : `, ${count === 1 ? '' : `${off.length} of them `}disabled (${off.join(', ')})`;
      return `${tenant.id}: ${JSON.stringify(tenant.name)}; ${count} member${count === 1 ? '' : 's'}${disabledOnes}`;
    });
    if (known.length === 0) {
      lines.push(
        `There is no tenant in ${where} yet: an account of no tenant cannot sign in. Create one with ` +
          `${nextCommand('tenant:add', '<id> --name "<Name>"')} (the demo makes its own at its first start).`,
      );
    }
    const alone = accounts.filter((account) => !memberships.has(account.id));
    if (alone.length > 0 && known.length > 0) {
      const named = alone.map((account) => `${account.username}${account.disabled ? ' (disabled)' : ''}`);
      // One account: the command names it, to be pasted as it is; several: <username>, each to be given its own.
      const username = alone.length === 1 ? (alone[0] as ListedAccount).username : '<username>';
      lines.push(
        `${alone.length === 1 ? 'One account belongs' : `${alone.length} accounts belong`} to no tenant and cannot ` +
          `sign in: ${named.join(', ')} (${nextCommand('user:add', `${username} --keep-password --tenant <id>`)}).`,
      );
    }
    const counted = `${known.length} tenant${known.length === 1 ? '' : 's'}`;
    process.stdout.write(`${lines.join('\n')}\n(${counted} in ${where})\n`);
    return 0;
  });
}

runCommand(
  'tenant:list',
  () => main(process.argv.slice(2)),
  `Lists the tenants with their members, and the accounts of no tenant.\n${TENANT_LIST_USAGE}`,
);

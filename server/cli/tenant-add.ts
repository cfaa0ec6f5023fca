/**
 * `npm run tenant:add -- <id> [--name "<Name>"]`: creates a tenant, or renames one, in the database (PostgreSQL at
 * DATABASE_URL when set, else the SQLite file at DATABASE_PATH). Without arguments: the usage and the tenants there
 * are. The demo creates its own tenants at its first start; an application of one's own starts with none, and an
 * account of no tenant cannot sign in, so this is the first step before `npm run user:add -- <name> --tenant <id>`.
 * A new tenant that would leave no account able to administer is refused (tenant-addition.ts).
 */
import { existsSync } from 'node:fs';
import { storageSettingsFromEnv } from '../env-config';
import { describeStorage } from '../storage/open-storage';
import { notATenantId, TENANT_ID_PATTERN, tenantNameProblem, TenantStore } from '../tenants/tenant-store';
import { LastAdministratorError } from '../auth/administrators';
import { lastAdministratorMessage } from './last-administrator-message';
import { nextCommand } from './next-command';
import { addTenant, TenantIdInCaseOnlyError, TenantNameTakenError } from './tenant-addition';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

export const TENANT_ADD_USAGE = `usage: ${commandLine('tenant:add', '<id> [--name "<Name>"]')}`;

/** The command line read: the tenant to save, or why not (what is wrong, then the usage). */
export function parseTenantAddArgs(args: readonly string[]): { id: string; name: string | null } | { usage: string } {
  const refuse = (problem: string) => ({ usage: `${problem} ${TENANT_ADD_USAGE}` });
  let name: string | null | undefined;
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    // `--name=Acme` as `--name Acme`, as user:add takes its options.
    if (arg === '--name' || arg.startsWith('--name=')) {
      const value = arg === '--name' ? args[++i] : arg.slice('--name='.length);
      // A second --name was taken for the id, or extra words, and refused with the usage alone.
      if (name !== undefined) return refuse('--name is given twice.');
      if (value === undefined || value.trim() === '') return refuse('--name needs a name.');
      // An option after it (`--name --help`, `--name -h`) means the name was left out, as user:list and flag read
      // one after --tenant: naming the tenant "-h" instead hid the slip. `--name=-h` names it so.
      if (arg === '--name' && value.startsWith('-')) {
        return refuse(`--name needs a name, not the option "${value}" (--name=${value} names it so).`);
      }
      name = value.trim();
      const problem = tenantNameProblem(name);
      if (problem) return refuse(problem);
    } else if (arg.startsWith('-')) {
      return refuse(`Unknown option ${arg}.`);
    } else {
      ids.push(arg);
    }
  }
  if (ids.length !== 1) {
    return ids.length === 0
      ? { usage: TENANT_ADD_USAGE }
      : refuse(`Give one tenant id, not ${ids.length}: ${ids.map((id) => JSON.stringify(id)).join(', ')}.`);
  }
  const id = ids[0] as string;
  if (!TENANT_ID_PATTERN.test(id)) return refuse(notATenantId(id));
  return { id, name: name ?? null };
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseTenantAddArgs(args);
  const settings = storageSettingsFromEnv(process.env);
  // A mistyped command must not create a database where there is none (the default ./data/app.db).
  if ('usage' in parsed && settings.kind === 'sqlite' && !existsSync(settings.path)) {
    process.stderr.write(`${parsed.usage}\nNo database at ${describeStorage(settings)} yet.\n`);
    return 2;
  }
  return withStorage(
    settings,
    async (engine, where) => {
      const tenants = new TenantStore(engine);
      if ('usage' in parsed) {
        const known = await tenants.list();
        const list = known.map((tenant) => `${tenant.id} (${tenant.name})`).join(', ');
        process.stderr.write(`${parsed.usage}\nTenants in ${where}: ${list || 'none yet'}.\n`);
        return 2;
      }
      try {
        const { tenant, before } = await addTenant(engine, parsed.id, parsed.name);
        process.stdout.write(
          before === undefined
            ? `Created tenant "${tenant.id}" (${tenant.name}) in ${where}. Add staff to it: ` +
                `${nextCommand('user:add', `<username> --tenant ${tenant.id}`)}\n`
            : `${before.name === tenant.name ? 'Kept' : 'Renamed'} tenant "${tenant.id}" (${tenant.name}) in ${where}.\n`,
        );
      } catch (error) {
        const refusal = refusalOf(error, where);
        if (refusal === null) throw error;
        process.stderr.write(`${refusal}\n`);
        return 1;
      }
      return 0;
    },
    // Before the first start, an installation is set up with these two: they may make its database.
    { mayCreate: true },
  );
}

/** What a refused save says, or null for a failure that is not a refusal. */
function refusalOf(error: unknown, where: string): string | null {
  if (error instanceof LastAdministratorError) {
    // An operator by its memberships' roles alone reaches a new tenant by its own role, as every account does there.
    return lastAdministratorMessage(
      error,
      "or the same to an account that is an operator by its memberships' roles alone (a new tenant has no members " +
        "yet: an account's own role applies there)",
    );
  }
  if (error instanceof TenantIdInCaseOnlyError) {
    const { alike, id } = error;
    return (
      `There is a tenant "${alike.id}" (${alike.name}) in ${where}: "${id}" differs from it in case only. ` +
      `Use "${alike.id}", or an id of other letters. Nothing was changed.`
    );
  }
  if (error instanceof TenantNameTakenError) {
    const { namesake, id } = error;
    return (
      `Tenant "${namesake.id}" in ${where} is already named ${JSON.stringify(namesake.name)}: staff tell tenants ` +
      `apart by their names. Give "${id}" another with --name. Nothing was changed.`
    );
  }
  return null;
}

runCommand('tenant:add', () => main(process.argv.slice(2)), `Creates a tenant, or renames one.\n${TENANT_ADD_USAGE}`, [
  '--name',
]);

/**
 * `npm run tenant:add -- <id> [--name "<Name>"]`: creates a tenant, or renames one, in the database (PostgreSQL at
 * DATABASE_URL when set, else the SQLite file at DATABASE_PATH). Without arguments: the usage and the tenants there
 * are. The demo creates its own tenants at its first start; an application of one's own starts with none, and an
 * account of no tenant cannot sign in, so this is the first step before `npm run user:add -- <name> --tenant <id>`.
 */
import { existsSync } from 'node:fs';
import { storageSettingsFromEnv } from '../env-config';
import { notATenantId, TENANT_ID_PATTERN, tenantNameProblem, TenantStore } from '../tenants/tenant-store';
import { nextCommand } from './next-command';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

export const TENANT_ADD_USAGE = `usage: ${commandLine('tenant:add', '<id> [--name "<Name>"]')}`;

/** The command line read: the tenant to save, or why not. */
export function parseTenantAddArgs(args: readonly string[]): { id: string; name: string | null } | { usage: string } {
  // `--name=Acme` as `--name Acme`, as user:add takes its options.
  const rest = args.flatMap((arg) => (arg.startsWith('--name=') ? ['--name', arg.slice('--name='.length)] : [arg]));
  let name: string | null = null;
  const at = rest.indexOf('--name');
  if (at !== -1) {
    const value = rest[at + 1];
    if (value === undefined || value.trim() === '') return { usage: `--name needs a name. ${TENANT_ADD_USAGE}` };
    name = value.trim();
    const problem = tenantNameProblem(name);
    if (problem) return { usage: `${problem} ${TENANT_ADD_USAGE}` };
    rest.splice(at, 2);
  }
  const [id, ...extra] = rest;
  if (id === undefined || extra.length > 0) return { usage: TENANT_ADD_USAGE };
  if (!TENANT_ID_PATTERN.test(id)) return { usage: `${notATenantId(id)} ${TENANT_ADD_USAGE}` };
  return { id, name };
}

function sameLetters(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseTenantAddArgs(args);
  const settings = storageSettingsFromEnv(process.env);
  // A mistyped command must not create a database where there is none (the default ./data/app.db).
  if ('usage' in parsed && settings.kind === 'sqlite' && !existsSync(settings.path)) {
    process.stderr.write(`${parsed.usage}\nNo database at ${settings.path} yet.\n`);
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
      const existing = await tenants.get(parsed.id);
      // Ids differ in case only: a second tenant beside the first is rarely what was meant (usernames ignore case).
      const alike = existing ? undefined : (await tenants.list()).find((tenant) => sameLetters(tenant.id, parsed.id));
      if (alike) {
        process.stderr.write(
          `There is a tenant "${alike.id}" (${alike.name}) in ${where}: "${parsed.id}" differs from it in case only. ` +
            `Use "${alike.id}", or an id of other letters. Nothing was changed.\n`,
        );
        return 1;
      }
      const name = parsed.name ?? existing?.name ?? parsed.id;
      // Two tenants of one name are one entry twice in a member's switcher, and "in Globex" in a refusal names either.
      const namesake = (await tenants.list()).find(
        (tenant) => tenant.id !== parsed.id && sameLetters(tenant.name.trim(), name),
      );
      if (namesake) {
        process.stderr.write(
          `Tenant "${namesake.id}" in ${where} is already named ${JSON.stringify(namesake.name)}: staff tell tenants ` +
            `apart by their names. Give "${parsed.id}" another with --name. Nothing was changed.\n`,
        );
        return 1;
      }
      await tenants.save({ id: parsed.id, name });
      process.stdout.write(
        existing === undefined
          ? `Created tenant "${parsed.id}" (${name}) in ${where}. Add staff to it: ` +
              `${nextCommand('user:add', `<username> --tenant ${parsed.id}`)}\n`
          : `${existing.name === name ? 'Kept' : 'Renamed'} tenant "${parsed.id}" (${name}) in ${where}.\n`,
      );
      return 0;
    },
    // Before the first start, an installation is set up with these two: they may make its database.
    { mayCreate: true },
  );
}

runCommand('tenant:add', () => main(process.argv.slice(2)));

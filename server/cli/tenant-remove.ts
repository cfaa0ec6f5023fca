/**
 * `npm run tenant:remove -- <id> [--with-data] [--yes]`: removes a tenant from the database (PostgreSQL at
 * DATABASE_URL, else the SQLite file at DATABASE_PATH) with its memberships. A tenant that still holds records,
 * restorable deleted records or feature flag settings is refused, with the counts, unless `--with-data` says to delete
 * them too. Accounts left in no tenant are kept and named (they cannot sign in until given one), as are the placement
 * rules (stored, and REMOTES_CONFIG's as this process reads it; not code's, which it cannot read) and canaries that
 * name the tenant (tenant-references.ts says what becomes of them: a canary that would reach nobody without it is
 * ended with it, one that goes on for others has it taken out of its tenants, both audited). On a terminal it asks
 * first; without one, `--yes` is required.
 */
import { storageSettingsFromEnv } from '../env-config';
import { LastAdministratorError } from '../auth/administrators';
import { commandLine } from '../process/operator-commands';
import type { StorageEngine } from '../storage/storage-engine';
import {
  describeData,
  holdsData,
  NoSuchTenantError,
  removeTenant,
  TenantHoldsDataError,
  type TenantRemoval,
} from './tenant-removal';
import { argumentProblem } from './argument-problem';
import { confirmRemoval, notConfirmedMessage } from './confirm-removal';
import { lastAdministratorMessage } from './last-administrator-message';
import { nextCommand } from './next-command';
import { runCommand } from './run-command';
import { TENANT_REMOVE_ACTOR } from './tenant-canaries';
import { CODE_RULES_NOT_READ, describeReferences, readTenantReferences } from './tenant-references';
import { unknownTenantsMessage } from './unknown-tenants';
import { withStorage } from './with-storage';

export const TENANT_REMOVE_USAGE = `usage: ${commandLine('tenant:remove', '<id> [--with-data] [--yes]')}`;

const FLAGS = ['--with-data', '--yes'];

async function main(args: readonly string[]): Promise<number> {
  const withData = args.includes('--with-data');
  const yes = args.includes('--yes');
  const [id] = args.filter((arg) => !FLAGS.includes(arg));
  const problem = argumentProblem(args, FLAGS, 'tenant id');
  if (problem !== null || id === undefined) {
    process.stderr.write(`${problem ? `${problem}\n` : ''}${TENANT_REMOVE_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    try {
      return await remove(engine, id, where, { withData, yes });
    } catch (error) {
      if (error instanceof LastAdministratorError) {
        // A tenant's removal takes administration away only from accounts it leaves in no tenant.
        // "or give them another tenant" named no one: "them" were the accounts left in no tenant, said nowhere.
        const orTenant = `or first give another tenant to each account it leaves in no tenant (${nextCommand('user:add', '<username> --keep-password --tenant <id>')})`;
        process.stderr.write(`${lastAdministratorMessage(error, orTenant)}\n`);
        return 1;
      }
      if (error instanceof TenantHoldsDataError) {
        // "holds 1 record. To delete them with it" read as something more than the one record said.
        const { records, deletedRecords, flagSettings } = error.removal.data;
        const them = records + deletedRecords + flagSettings === 1 ? 'it' : 'them';
        process.stderr.write(
          `Refused: tenant "${error.removal.id}" (${error.removal.name}) in ${where} holds ` +
            `${describeData(error.removal.data)}. To delete ${them} with the tenant: ` +
            `${nextCommand('tenant:remove', `${error.removal.id} --with-data`)}. Nothing was changed.\n`,
        );
        return 1;
      }
      if (!(error instanceof NoSuchTenantError)) throw error;
      process.stderr.write(`${unknownTenantsMessage([error.id], error.known)} Nothing was changed in ${where}.\n`);
      return 1;
    }
  });
}

async function remove(
  engine: StorageEngine,
  id: string,
  where: string,
  { withData, yes }: { withData: boolean; yes: boolean },
): Promise<number> {
  const plan = await removeTenant(engine, id, { withData, planOnly: true });
  const flags = withData ? ' --with-data --yes' : ' --yes';
  // What names the tenant stays (placement rules), is ended with it (a canary reaching nobody then) or changed (a
  // canary going on for others, the tenant taken out of its list): said
  // before the question, and again once removed, so a rule that then holds for nobody, the publish it refuses, or a
  // canary gone from the releases page is no surprise found later.
  // Rules placed by code are in the application, which a command does not load: said every time, as what it cannot see.
  const named = [...describeReferences(plan.id, await readTenantReferences(engine, plan.id)), CODE_RULES_NOT_READ];
  if (!yes) process.stderr.write(`${named.join('\n')}\n`);
  const confirmation = await confirmRemoval(`Remove ${describe(plan)} from ${where}?`, yes);
  if (confirmation !== 'confirmed') {
    process.stderr.write(`${notConfirmedMessage(confirmation, nextCommand('tenant:remove', `${plan.id}${flags}`))}\n`);
    return 1;
  }
  // Checked and counted again in the removing transaction: an answer typed slowly may follow another change.
  const removed = await removeTenant(engine, plan.id, { withData });
  const lines = [`Removed ${describe(removed)} from ${where}.`];
  lines.push(...describeReferences(removed.id, await readTenantReferences(engine, removed.id)), CODE_RULES_NOT_READ);
  for (const { remote, version } of removed.canariesEnded) {
    lines.push(
      `Ended the canary of ${remote} ${version}, which reached nobody without "${removed.id}" (audited canary-end by ` +
        `${TENANT_REMOVE_ACTOR}; the hosts stop serving it at their next poll).`,
    );
  }
  for (const { remote, version } of removed.canariesLeft) {
    lines.push(
      `Took "${removed.id}" out of the tenants of the canary of ${remote} ${version}, which goes on for the others ` +
        `(audited canary by ${TENANT_REMOVE_ACTOR}).`,
    );
  }
  if (removed.leftWithoutTenant.length > 0) {
    lines.push(
      `Left in no tenant, so unable to sign in (kept): ${removed.leftWithoutTenant.join(', ')}. Give one a tenant ` +
        `with ${nextCommand('user:add', '<username> --keep-password --tenant <id>')}, or remove it with ` +
        `${nextCommand('user:remove', '<username>')}.`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The tenant and what goes with it, in words. */
function describe(removal: TenantRemoval): string {
  const members = removal.members.length;
  const memberships = `${members} membership${members === 1 ? '' : 's'}${members > 0 ? ` (${removal.members.join(', ')})` : ''}`;
  const data = holdsData(removal.data) ? `, and its data: ${describeData(removal.data)}` : '';
  return `tenant "${removal.id}" (${removal.name}) with ${memberships}${data}`;
}

runCommand(
  'tenant:remove',
  () => main(process.argv.slice(2)),
  'Removes a tenant with its memberships (with --with-data, its records and flag settings too). Names what names ' +
    'the tenant: the placement rules stored in the database and those of REMOTES_CONFIG as read here (kept), the ' +
    `canaries (ended, or the tenant taken out of their tenants). ${CODE_RULES_NOT_READ}\n${TENANT_REMOVE_USAGE}`,
);

/**
 * `npm run flag -- set <name> on|off [--tenant <id>]`, `npm run flag -- unset <name> [--tenant <id>]`,
 * `npm run flag -- list`: the feature flags `visibleWhen` rules read, in the database (PostgreSQL at DATABASE_URL,
 * else the SQLite file at DATABASE_PATH). Without `--tenant` the setting is global; a tenant's own setting overrides
 * it. Every host sees a change at its next request.
 */
import { storageSettingsFromEnv } from '../env-config';
import { FeatureFlagStore, InvalidFlagError } from '../flags/feature-flag-store';
import { TenantStore } from '../tenants/tenant-store';
import { runCommand } from './run-command';
import { unknownTenantsMessage } from './unknown-tenants';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

export const FEATURE_FLAG_USAGE =
  `usage: ${commandLine('flag', 'set <name> on|off [--tenant <id>]')}   |   ` +
  `${commandLine('flag', 'unset <name> [--tenant <id>]')}   |   ${commandLine('flag', 'list')}`;

type FlagCommand =
  | { action: 'set'; name: string; enabled: boolean; tenant: string | null }
  | { action: 'unset'; name: string; tenant: string | null }
  | { action: 'list' };

/** The command line read, or null when it does not follow the usage. */
export function parseFlagArgs(args: readonly string[]): FlagCommand | null {
  const rest = [...args];
  let tenant: string | null = null;
  const at = rest.indexOf('--tenant');
  if (at !== -1) {
    const value = rest[at + 1];
    if (value === undefined || value.startsWith('--')) return null;
    tenant = value;
    rest.splice(at, 2);
  }
  const [action, name, value, ...extra] = rest;
  if (action === 'list') return name === undefined && tenant === null ? { action } : null;
  if (action === 'set' && name && (value === 'on' || value === 'off') && extra.length === 0) {
    return { action, name, enabled: value === 'on', tenant };
  }
  if (action === 'unset' && name && value === undefined) return { action, name, tenant };
  return null;
}

async function main(args: readonly string[]): Promise<number> {
  const command = parseFlagArgs(args);
  if (command === null) {
    process.stderr.write(`${FEATURE_FLAG_USAGE}\n`);
    return 2;
  }
  const scope = (tenant: string | null) => (tenant === null ? 'globally' : `for tenant "${tenant}"`);
  return withStorage(storageSettingsFromEnv(process.env), async (engine, where) => {
    const flags = new FeatureFlagStore(engine);
    try {
      if (command.action === 'list') {
        const all = await flags.list();
        if (all.length === 0) process.stdout.write(`No feature flag is set in ${where}.\n`);
        for (const flag of all)
          process.stdout.write(`${flag.name}\t${flag.enabled ? 'on' : 'off'}\t${scope(flag.tenant)}\n`);
        return 0;
      }
      if (command.action === 'set') {
        // A mistyped tenant would get a flag no tenant ever sees, said to be on.
        const known = command.tenant === null ? [] : await new TenantStore(engine).list();
        if (command.tenant !== null && !known.some((tenant) => tenant.id === command.tenant)) {
          process.stderr.write(`${unknownTenantsMessage([command.tenant], known)} Nothing was changed.\n`);
          return 1;
        }
        await flags.set(command.name, command.enabled, command.tenant);
        process.stdout.write(`Flag "${command.name}" is ${command.enabled ? 'on' : 'off'} ${scope(command.tenant)}.\n`);
        return 0;
      }
      if (!(await flags.unset(command.name, command.tenant))) {
        process.stderr.write(`Flag "${command.name}" was not set ${scope(command.tenant)}. Nothing was changed.\n`);
        return 1;
      }
      process.stdout.write(`Flag "${command.name}" is no longer set ${scope(command.tenant)}.\n`);
      return 0;
    } catch (error) {
      if (error instanceof InvalidFlagError) {
        process.stderr.write(`${error.message}\n`);
        return 2;
      }
      throw error;
    }
  });
}

runCommand('feature flag change', () => main(process.argv.slice(2)));

/**
 * `npm run flag -- set <name> on|off [--tenant <id>]`, `npm run flag -- unset <name> [--tenant <id>]`,
 * `npm run flag -- list`: the feature flags `visibleWhen` rules read, in the database (PostgreSQL at DATABASE_URL,
 * else the SQLite file at DATABASE_PATH). Without `--tenant` the setting is global; a tenant's own setting overrides
 * it. Every host sees a change at its next request.
 */
import { storageSettingsFromEnv } from '../env-config';
import { FeatureFlagStore, FlagTenantMissingError, InvalidFlagError } from '../flags/feature-flag-store';
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

/**
 * The command line read, or what is wrong with it (said before the usage: a second --tenant, `--tenant=acme`, a typo
 * in an option or in on|off were answered with the usage alone).
 */
export function parseFlagArgs(args: readonly string[]): FlagCommand | { problem: string } {
  const rest: string[] = [];
  let tenant: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--tenant' || arg.startsWith('--tenant=')) {
      const value = arg === '--tenant' ? args[++i] : arg.slice('--tenant='.length);
      if (tenant !== null) return { problem: "--tenant is given twice: a setting is one tenant's, or global." };
      if (value === undefined || value === '' || value.startsWith('-'))
        return { problem: '--tenant needs a tenant id.' };
      tenant = value;
    } else if (arg.startsWith('-')) {
      return { problem: `Unknown option ${arg}.` };
    } else {
      rest.push(arg);
    }
  }
  const [action, name, value, ...extra] = rest;
  if (action === undefined) return { problem: 'Say set, unset or list.' };
  if (action === 'list') {
    if (tenant !== null) return { problem: 'list takes no --tenant: it lists every setting, each with its tenant.' };
    return name === undefined ? { action } : { problem: `list takes nothing more, got "${name}".` };
  }
  if (action !== 'set' && action !== 'unset') return { problem: `Unknown action "${action}": set, unset or list.` };
  if (!name) return { problem: `${action} needs a flag name.` };
  if (action === 'set') {
    if (value !== 'on' && value !== 'off') {
      return { problem: value === undefined ? 'Say on or off after the name.' : `Say on or off, not "${value}".` };
    }
    if (extra.length > 0) return { problem: `Unexpected "${extra[0]}" after on|off.` };
    return { action, name, enabled: value === 'on', tenant };
  }
  if (value !== undefined) return { problem: `unset takes a flag name only, got "${value}" after it.` };
  return { action, name, tenant };
}

async function main(args: readonly string[]): Promise<number> {
  const command = parseFlagArgs(args);
  if ('problem' in command) {
    process.stderr.write(`${command.problem}\n${FEATURE_FLAG_USAGE}\n`);
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
        // A mistyped tenant, or one removed meanwhile, is refused by the store (FlagTenantMissingError): checked apart
        // from the write, a tenant removed between the two kept a setting no tenant ever sees, said to be on.
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
      if (error instanceof FlagTenantMissingError) {
        process.stderr.write(`${unknownTenantsMessage([error.tenant], error.known)} Nothing was changed.\n`);
        return 1;
      }
      if (error instanceof InvalidFlagError) {
        process.stderr.write(`${error.message}\n`);
        return 2;
      }
      throw error;
    }
  });
}

runCommand(
  'flag',
  () => main(process.argv.slice(2)),
  `Sets, unsets or lists the feature flags.\n${FEATURE_FLAG_USAGE}`,
  ['--tenant'],
);

/**
 * `npm run user:add -- <username> [--role <role>] [--tenant <id> [--role <role>]]... [--permission <name>]...
 * [--keep-password]`: adds a staff account, or changes an existing one, in the database: PostgreSQL at DATABASE_URL
 * when set, else the SQLite file at DATABASE_PATH (default ./data/app.db).
 *
 * Password: a new account needs one. For an existing account, its current password keeps the stored hash (its
 * sessions stay signed in), any other replaces it (its sessions end); --keep-password asks for none and keeps it.
 *
 * --role viewer|editor|operator before any --tenant gives the account that role (shared/staff-roles.ts: viewer reads
 * records only, operator also manages releases and placements); --role none takes it away (an account without a role
 * is an editor). A --role right after a --tenant is that membership's role, which wins while that tenant is current.
 * --permission (repeatable) makes exactly those the permissions granted to the account on top of its roles';
 * --permission none takes every grant away (`npm run user:permission` grants and revokes one by one).
 *
 * Tenants: the --tenant flags replace the account's tenants and their roles. Without them a new account joins every
 * tenant, and an existing one keeps its tenants with their roles (or joins every tenant when it has none).
 *
 * The change (password, role, grants, tenants) is made in one transaction, a new account made in the same one, and
 * refused whole when it would leave no account able to administer (administrators.ts): checked before the password is
 * asked, and again as it is made.
 *
 * A new password is hashed with the built-in scrypt parameters (DEFAULT_SCRYPT_PARAMS), the ones `npm start` and every
 * start through start-server.ts check against. A host whose own entry gives createApp other `passwordHashParams` has
 * them in its code only: no environment variable or file sets them, for the server or for this command, so the command
 * cannot follow them (USER_ADD_HASH_NOTE, the help's last lines, says what becomes of such an account).
 */
import { storageSettingsFromEnv } from '../env-config';
import { hashPassword, verifyPassword } from '../auth/password-hash';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/username';
import type { StaffUser } from '../auth/staff-user';
import { changeAccount, createAccount, UnknownTenantsError, type AccountChange } from '../auth/account-change';
import { LastAdministratorError } from '../auth/administrators';
import { UserStore } from '../auth/user-store';
import { TenantStore } from '../tenants/tenant-store';
import type { Tenant } from '../../shared';
import {
  parseUserAddArgs,
  UsageError,
  USER_ADD_HASH_NOTE,
  USER_ADD_USAGE,
  USER_ADD_OPTIONS,
  USER_ADD_VALUE_OPTIONS,
  type UserAddArgs,
} from './user-add-args';
import { readPassword } from './read-password';
import { nextCommand } from './next-command';
import { unknownTenantsMessage } from './unknown-tenants';
import { everyTenantReach } from './every-tenant-reach';
import { lastAdministratorMessage } from './last-administrator-message';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';

export const PASSWORD_TOO_SHORT = `The password is too short: use at least ${PASSWORD_MIN_LENGTH} characters. Nothing was changed.`;
export const PASSWORD_TOO_LONG = `The password is too long: use at most ${PASSWORD_MAX_LENGTH} characters. Nothing was changed.`;

async function main(): Promise<number> {
  let args;
  try {
    args = parseUserAddArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const settings = storageSettingsFromEnv(process.env);
  return withStorage(
    settings,
    async (engine, where) => {
      const users = new UserStore(engine);
      const tenants = new TenantStore(engine);
      const known = await tenants.list();
      const unknown = args.tenants.filter((id) => !known.some((tenant) => tenant.id === id));
      if (unknown.length > 0) {
        process.stderr.write(`${unknownTenantsMessage(unknown, known, 'none yet (start the server once)')}\n`);
        return 1;
      }

      const existing = await users.findByUsername(args.username);
      const current = existing ? await tenants.tenantsOf(existing.id) : [];
      // Every tenant by default is what one tenant needs, and an easy mistake among several: said, with the way back.
      const joinedEvery = args.tenants.length === 0 && current.length === 0 && known.length > 1;
      const roles = args.tenantRoles;
      const memberships =
        args.tenants.length > 0
          ? args.tenants.map((tenant) => ({ tenant, role: roles?.get(tenant) ?? null }))
          : current.length === 0
            ? known.map((tenant) => ({ tenant: tenant.id, role: null }))
            : undefined;
      const permissions = args.permissions;
      const change: AccountChange = {
        ...(args.role === undefined ? {} : { role: args.role }),
        ...(permissions === undefined ? {} : { grants: () => permissions }),
        ...(memberships === undefined ? {} : { memberships }),
      };
      try {
        // Refused before a password is asked for nothing. A new account takes nobody's access away.
        if (existing) await changeAccount(engine, existing.username, change, { planOnly: true });
        const settled = await settlePassword(users, args.username, existing, args.keepPassword === true, where);
        if ('refused' in settled) {
          process.stderr.write(`${settled.refused}\n`);
          return 1;
        }
        const { outcome, passwordHash } = settled;
        let user: StaffUser;
        if (settled.outcome === 'created') {
          // Made with all it is given in one transaction: a failure in between leaves no account half made.
          const created = await createAccount(engine, args.username, settled.passwordHash, change);
          if (!created) {
            process.stderr.write(
              `An account "${args.username}" was made in ${where} while the password was asked: run the command ` +
                'again to change it. Nothing was changed.\n',
            );
            return 1;
          }
          user = created;
        } else {
          user = settled.user;
          // Checked again with the change: another command may have changed who administers while the password was typed.
          const changed = await changeAccount(
            engine,
            user.username,
            passwordHash === undefined ? change : { ...change, passwordHash },
          );
          if (!changed) {
            process.stderr.write(
              `The account "${user.username}" was removed from ${where} while the password was asked. Nothing was changed.\n`,
            );
            return 1;
          }
        }
        return await report(users, tenants, known, args, user, outcome, joinedEvery, where);
      } catch (error) {
        if (error instanceof UnknownTenantsError) {
          process.stderr.write(`${unknownTenantsMessage(error.unknown, error.known)} Nothing was changed.\n`);
          return 1;
        }
        if (!(error instanceof LastAdministratorError)) throw error;
        process.stderr.write(`${lastAdministratorMessage(error)}\n`);
        return 1;
      }
    },
    // Before the first start, an installation is set up with these two: they may make its database.
    { mayCreate: true },
  );
}

/** Says what the account is now: its tenants with their roles, its own role and grants, what it reaches. */
async function report(
  users: UserStore,
  tenants: TenantStore,
  known: readonly Tenant[],
  args: UserAddArgs,
  user: StaffUser,
  outcome: PasswordOutcome,
  joinedEvery: boolean,
  where: string,
): Promise<number> {
  const memberOf = await tenants.membershipsOf(user.id);

  // Each tenant with the role in force there, so a --role bound to another tenant than meant shows at once.
  const memberships =
    memberOf.tenants.length > 0
      ? `tenants: ${memberOf.tenants.map(({ id }) => roleNote(id, memberOf.roles.get(id))).join(', ')}`
      : `no tenant yet, so it cannot sign in: create one with ${nextCommand('tenant:add', '<id>')}, then ` +
        `${nextCommand('user:add', `${user.username} --keep-password --tenant <id>`)} (the demo's first start adds ` +
        "it to the demo's tenants)";
  // The account as changed. Its grants in force, given or kept: left out when kept, a password reset hid a grant
  // the account still held.
  const changed = (await users.findByUsername(user.username)) ?? user;
  const grants = changed.grantedPermissions;
  const granted =
    args.permissions === undefined && grants.length === 0 ? '' : `; granted: ${grants.join(', ') || 'none'}`;
  // A new password does not give a disabled account its access back: said, or the operator believes it can sign in.
  const disabled = (await users.isDisabled(user.username))
    ? ` It is disabled: it cannot sign in until ${nextCommand('user:enable', user.username)}.`
    : '';
  // The account's own role, given or kept: left out, a kept operator read as the tenants' roles alone.
  const role = args.role !== undefined ? args.role : (user.roles[0] ?? null);
  const every = joinedEvery
    ? ` It joined every tenant, as no --tenant was given: ` +
      `${nextCommand('user:add', `${user.username} --keep-password --tenant <id>`)} keeps it to those named.`
    : '';
  const reach = await everyTenantReach(changed, tenants, known);
  process.stdout.write(
    `${HEADLINES[outcome]} "${user.username}" (${memberships}; role: ${role ?? 'none (an editor)'}${granted}) ` +
      `in ${where}${TAILS[outcome]}${disabled}${every}${reach === null ? '' : ` ${reach}`}\n`,
  );
  return 0;
}

/** What became of the password: a new account's, a new one for an existing account, or the stored one kept. */
type PasswordOutcome = 'created' | 'replaced' | 'kept';

const HEADLINES: Readonly<Record<PasswordOutcome, string>> = {
  created: 'Created the staff account',
  replaced: 'Set a new password for',
  kept: 'Kept the password of',
};

/**
 * How the summary line ends: whether the account's open sessions survive (each keeps a fingerprint of the hash), and
 * for a new password that the sign-in limits start again (they are counted per password).
 */
const TAILS: Readonly<Record<PasswordOutcome, string>> = {
  created: '.',
  replaced:
    '. Its open sessions end at their next request; its failed sign-ins are no longer counted against it, so it ' +
    'signs in with the new password at once.',
  kept: '. Its open sessions stay signed in.',
};

/**
 * The password settled: a new account's hash (`passwordHash`: the account is made with the rest of the change), a new
 * hash for an existing account (written with the rest of the change), or the stored one left as it is. Its current
 * password (or --keep-password) keeps the stored hash: a fresh hash of the same password has a new salt, and a new
 * hash ends every session of the account (server/auth/create-passport.ts), which a role change must not do.
 */
async function settlePassword(
  users: UserStore,
  username: string,
  existing: StaffUser | undefined,
  keepPassword: boolean,
  where: string,
): Promise<SettledPassword | { refused: string }> {
  if (keepPassword) {
    if (existing) return { user: existing, outcome: 'kept' };
    return {
      refused: `There is no account "${username}" in ${where}: --keep-password changes existing accounts only. Nothing was changed.`,
    };
  }
  const password = await readPassword(
    existing
      ? `New password for "${existing.username}" (its current one keeps it): `
      : `Password for the new account "${username}": `,
  );
  if (password.length < PASSWORD_MIN_LENGTH) return { refused: PASSWORD_TOO_SHORT };
  if (password.length > PASSWORD_MAX_LENGTH) return { refused: PASSWORD_TOO_LONG };
  if (!existing) return { outcome: 'created', passwordHash: await hashPassword(password) };
  // A disabled account has no credentials to compare with (nor a session to keep): it gets the new hash.
  const stored = await users.findCredentials(existing.username);
  if (stored && (await verifyPassword(password, stored.passwordHash))) return { user: existing, outcome: 'kept' };
  return { user: existing, outcome: 'replaced', passwordHash: await hashPassword(password) };
}

/** What settlePassword leaves to write: a new account and its hash, or an existing account and its new hash if any. */
type SettledPassword =
  | { outcome: 'created'; passwordHash: string }
  | { user: StaffUser; outcome: 'replaced'; passwordHash: string }
  | { user: StaffUser; outcome: 'kept'; passwordHash?: undefined };

function roleNote(tenant: string, role: string | undefined): string {
  return role === undefined ? tenant : `${tenant} (${role})`;
}

runCommand(
  'user:add',
  main,
  `Adds a staff account, or changes an existing one: its current password or --keep-password keeps it.\n${USER_ADD_USAGE}\n` +
    USER_ADD_HASH_NOTE,
  USER_ADD_VALUE_OPTIONS,
  USER_ADD_OPTIONS,
);

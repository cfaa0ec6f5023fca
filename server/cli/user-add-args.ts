import {
  isStaffPermission,
  isStaffRole,
  STAFF_PERMISSIONS,
  STAFF_ROLES,
  type StaffPermission,
  type StaffRole,
} from '../../shared';
import { DEFAULT_SCRYPT_PARAMS } from '../auth/password-hash';
import { USERNAME_PATTERN } from '../auth/username';
import { commandLine } from '../process/operator-commands';

export const USER_ADD_USAGE =
  `usage: ${commandLine('user:add', '<username>')} [--role viewer|editor|operator|none] ` +
  '[--tenant <tenant id> [--role viewer|editor|operator|none]]... [--permission <permission>|none]... ' +
  '[--keep-password]';

/**
 * The help's last lines: which scrypt parameters the command hashes with, and that a host's own `passwordHashParams`
 * (code in its entry, given to createApp) do not reach it. Said, or the operator of such a host believes the accounts
 * it makes are hashed as the host's settings say.
 */
export const USER_ADD_HASH_NOTE =
  `New passwords are hashed with the built-in scrypt parameters (N=2^${Math.log2(DEFAULT_SCRYPT_PARAMS.N)}, ` +
  `r=${DEFAULT_SCRYPT_PARAMS.r}, p=${DEFAULT_SCRYPT_PARAMS.p}), the server's own unless a host's entry gives createApp ` +
  "other passwordHashParams. Those are set in the entry's code only (no environment variable or file sets them), so " +
  "this command cannot follow them: with stronger ones the account's hash is made again at its first sign-in, with " +
  'lighter ones it keeps this one.';

/** The options that take the next argument as their value (`--tenant acme`, also written `--tenant=acme`). */
export const USER_ADD_VALUE_OPTIONS = ['--tenant', '--role', '--permission'] as const;

/** Every option user:add takes: another one is refused as unknown, before a `-h` beside it is read as asking for help. */
export const USER_ADD_OPTIONS = [...USER_ADD_VALUE_OPTIONS, '--keep-password'] as const;

export interface UserAddArgs {
  username: string;
  /** Tenants given with --tenant, in order, without repeats; empty when none was given. */
  tenants: string[];
  /**
   * --role before any --tenant: the account's own role, `viewer`, `editor` or `operator` (shared/staff-roles.ts), or
   * null (`none`: the role taken away, which leaves an editor); undefined when not given (the role stays).
   */
  role?: StaffRole | null;
  /** --role right after a --tenant: that membership's role, which wins over the account's in that tenant. */
  tenantRoles?: ReadonlyMap<string, StaffRole>;
  /**
   * --permission: exactly the permissions granted to the account on top of its roles' (shared/staff-permissions.ts),
   * empty for `none`; undefined when not given (the grants stay).
   */
  permissions?: StaffPermission[];
  /**
   * --keep-password: change an existing account's role, tenants or grants without asking for its password (its
   * sessions stay); absent when not given (the password is asked).
   */
  keepPassword?: true;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${USER_ADD_USAGE}`);
    this.name = 'UsageError';
  }
}

/**
 * Parses `<username> [--role <role>] [--tenant <id> [--role <role>]]... [--permission <name>]... [--keep-password]`
 * (also `--flag=value`). A --role binds to the --tenant right before it, or to the account when it comes before every
 * --tenant: `ann --role viewer --tenant acme --role operator --tenant globex` is a viewer who operates acme.
 */
export function parseUserAddArgs(argv: readonly string[]): UserAddArgs {
  const tenants: string[] = [];
  // A Map: a tenant id may be any word, `constructor` or `__proto__` too, which an object would read as its own.
  const tenantRoles = new Map<string, StaffRole>();
  const positional: string[] = [];
  const roleGivenFor = new Set<string>();
  let role: StaffRole | null | undefined;
  let permissions: StaffPermission[] | undefined;
  let keepPassword = false;
  /** The tenant a --role now binds to; null: the account. */
  let lastTenant: string | null = null;
  const valueOf = (flag: string, i: number): [string | undefined, number] => {
    const arg = argv[i] as string;
    if (arg.startsWith(`${flag}=`)) return [arg.slice(flag.length + 1), i];
    const next = argv[i + 1];
    return [next === undefined || next.startsWith('--') ? undefined : next, i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const flag = arg.split('=', 1)[0];
    if (flag === '--tenant') {
      const [value, at] = valueOf('--tenant', i);
      i = at;
      if (!value) throw new UsageError('--tenant needs a tenant id.');
      tenants.push(value);
      lastTenant = value;
    } else if (flag === '--role') {
      const [value, at] = valueOf('--role', i);
      i = at;
      if (!isStaffRole(value) && value !== 'none') {
        // The word typed is named: `--role admin` read as "--role must be …" left the operator looking for the typo.
        throw new UsageError(
          `${value === undefined ? '--role needs a role' : `Unknown role "${value}"`}: --role must be ` +
            `${STAFF_ROLES.join(', ')} or none.`,
        );
      }
      const target = lastTenant ?? '';
      if (roleGivenFor.has(target)) {
        throw new UsageError(
          lastTenant === null
            ? '--role is given twice for the account.'
            : `--role is given twice for tenant "${lastTenant}".`,
        );
      }
      roleGivenFor.add(target);
      const given = isStaffRole(value) ? value : null;
      if (lastTenant === null) role = given;
      else if (given !== null) tenantRoles.set(lastTenant, given);
    } else if (flag === '--permission') {
      const [value, at] = valueOf('--permission', i);
      i = at;
      if (value === 'none') {
        if (permissions !== undefined && permissions.length > 0) {
          throw new UsageError('--permission none cannot come with other permissions.');
        }
        permissions = [];
      } else if (isStaffPermission(value)) {
        if (permissions !== undefined && permissions.length === 0) {
          throw new UsageError('--permission none cannot come with other permissions.');
        }
        permissions = [...new Set([...(permissions ?? []), value])];
      } else {
        throw new UsageError(
          `${value === undefined ? '--permission needs a permission' : `Unknown permission "${value}"`}: ` +
            `${STAFF_PERMISSIONS.join(', ')}, or none.`,
        );
      }
    } else if (arg === '--keep-password') {
      keepPassword = true;
    } else if (arg === '--help' || arg === '-h') {
      // Here only beside an option user:add does not take (runCommand answers it otherwise): that one is named.
      continue;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option ${arg}.`);
    } else {
      positional.push(arg);
    }
  }
  // A tenant named twice is read once; with a role after one of its flags only, which one meant it is a guess (the
  // other, without a role, says none): refused rather than made a role the operator may not have meant.
  const repeated = tenants.find((tenant, at) => tenants.indexOf(tenant) !== at && roleGivenFor.has(tenant));
  if (repeated !== undefined) {
    throw new UsageError(
      `--tenant "${repeated}" is given twice, with a --role after one of them only: give each tenant once, its ` +
        '--role right after it.',
    );
  }
  if (positional.length !== 1) throw new UsageError('Give exactly one username.');
  const username = positional[0] as string;
  if (!USERNAME_PATTERN.test(username)) {
    throw new UsageError(
      `"${username}" is not a valid username: up to 64 letters, digits and . _ @ -, starting with a letter or digit.`,
    );
  }
  return {
    username,
    tenants: [...new Set(tenants)],
    ...(role === undefined ? {} : { role }),
    ...(tenantRoles.size === 0 ? {} : { tenantRoles }),
    ...(permissions === undefined ? {} : { permissions }),
    ...(keepPassword ? { keepPassword: true as const } : {}),
  };
}

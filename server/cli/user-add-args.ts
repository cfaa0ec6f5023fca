import { STAFF_ROLES, type StaffRole } from '../../shared';
import { USERNAME_PATTERN } from '../auth/username';

export const USER_ADD_USAGE =
  'Usage: npm run user:add -- <username> [--tenant <tenant id>]... [--role viewer|editor|operator|none]';

export interface UserAddArgs {
  username: string;
  /** Tenants given with --tenant, in order, without repeats; empty when none was given. */
  tenants: string[];
  /**
   * --role: `viewer`, `editor` or `operator` (shared/staff-roles.ts), or null (`none`: the role taken away, which
   * leaves an editor); undefined when not given (the role stays).
   */
  role?: StaffRole | null;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${USER_ADD_USAGE}`);
    this.name = 'UsageError';
  }
}

/** Parses `<username> [--tenant <id>]...` (also `--tenant=<id>`). */
export function parseUserAddArgs(argv: readonly string[]): UserAddArgs {
  const tenants: string[] = [];
  const positional: string[] = [];
  let role: StaffRole | null | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--tenant') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError('--tenant needs a tenant id.');
      tenants.push(value);
    } else if (arg.startsWith('--tenant=')) {
      const value = arg.slice('--tenant='.length);
      if (value === '') throw new UsageError('--tenant needs a tenant id.');
      tenants.push(value);
    } else if (arg === '--role' || arg.startsWith('--role=')) {
      const value = arg === '--role' ? argv[++i] : arg.slice('--role='.length);
      const known = STAFF_ROLES.find((name) => name === value);
      if (known === undefined && value !== 'none') {
        throw new UsageError(`--role must be ${STAFF_ROLES.join(', ')} or none.`);
      }
      role = known ?? null;
    } else if (arg === '--help' || arg === '-h') {
      throw new UsageError('Adds a staff account, or sets a new password for an existing one.');
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option ${arg}.`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new UsageError('Give exactly one username.');
  const username = positional[0] as string;
  if (!USERNAME_PATTERN.test(username)) {
    throw new UsageError(
      `"${username}" is not a valid username: up to 64 letters, digits and . _ @ -, starting with a letter or digit.`,
    );
  }
  return { username, tenants: [...new Set(tenants)], ...(role === undefined ? {} : { role }) };
}

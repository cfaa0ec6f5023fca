import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The operators' commands, by their npm script's name, and the compiled file (and first argument) each runs. */
const COMMAND_FILES = {
  'user:add': 'user-add.js',
  'user:disable': 'user-access.js disable',
  'user:enable': 'user-access.js enable',
  'user:remove': 'user-remove.js',
  'user:permission': 'user-permission.js',
  'user:list': 'user-list.js',
  'tenant:add': 'tenant-add.js',
  'tenant:list': 'tenant-list.js',
  'tenant:remove': 'tenant-remove.js',
  'token:add': 'team-token.js add',
  'token:revoke': 'team-token.js revoke',
  'token:list': 'team-token.js list',
  'remotes:reload': 'remotes-reload.js',
  'db:copy': 'db-copy.js',
  'db:backup': 'db-backup.js',
  'db:restore': 'db-restore.js',
  flag: 'feature-flag.js',
} as const;

export type OperatorCommand = keyof typeof COMMAND_FILES;

/** Writes `command` with `args` as an operator types it where this server is installed. */
export type CommandLine = (command: OperatorCommand, args?: string) => string;

/**
 * The folder the product is installed in: `<root>/server/process/` in a checkout run from source,
 * `<root>/dist/server/process/` compiled (scripts/compile-server.ts).
 */
const INSTALL_ROOT = path.resolve(__dirname, __filename.endsWith('.js') ? '../../..' : '../..');

/**
 * COMMAND_PREFIX: what the operator types before a command to run it where the server runs, when that is not their
 * own shell (`docker exec -it <container>` in the image, `kubectl exec -it deploy/slots-platform --`). Empty when
 * unset. Such a command runs with the server's environment (the container's), so it needs no variable before it.
 */
export function commandPrefix(env: NodeJS.ProcessEnv = process.env): string {
  return env.COMMAND_PREFIX?.trim() ?? '';
}

/**
 * How an operator runs the product's commands in the installation at `root`, seen from `cwd`: `npm run user:add --
 * ann` where a package.json beside `dist/` has the scripts (a checkout, an unpacked release) and `cwd` is that folder,
 * else the compiled file itself, `node dist/server/cli/user-add.js ann` (the image holds `dist/` and `node_modules/`
 * only, and npm finds no package.json there), by its whole path from another folder (where `npm run` finds no script,
 * or another project's), after the `prefix` (commandPrefix). What the start message and the commands' usage and
 * hints print, so each can be pasted.
 */
export function commandLineFor(root: string, cwd: string = process.cwd(), prefix = commandPrefix()): CommandLine {
  const inRoot = path.resolve(cwd) === path.resolve(root);
  const scripts = inRoot ? npmScriptsIn(root) : new Set<string>();
  // Relative when the operator stands in the installation (the image's working folder), absolute otherwise.
  const cliFolder = path.join(inRoot ? '' : root, 'dist', 'server', 'cli');
  const before = prefix === '' ? '' : `${prefix} `;
  return (command, args = '') => {
    const rest = args === '' ? '' : ` ${args}`;
    if (scripts.has(command)) return `${before}npm run ${command}${rest === '' ? '' : ` --${rest}`}`;
    return `${before}node ${path.join(cliFolder, COMMAND_FILES[command])}${rest}`;
  };
}

function npmScriptsIn(root: string): ReadonlySet<string> {
  const file = path.join(root, 'package.json');
  if (!existsSync(file)) return new Set();
  try {
    const { scripts } = JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, unknown> };
    return new Set(Object.keys(scripts ?? {}));
  } catch {
    return new Set();
  }
}

/** The database a process uses, as far as a command printed for an operator needs it. */
export interface CommandStorage {
  /** PostgreSQL (DATABASE_URL). */
  postgres: boolean;
  /** The SQLite file, when it is not the default one. */
  databasePath?: string;
}

/**
 * What a printed command needs before it to reach the same database: nothing for the default file, nor when the
 * commands share the process's environment (COMMAND_PREFIX: `docker exec` into its container, which has the variable
 * already, and before the prefix it would be lost); `DATABASE_PATH=<file> ` for another file; for PostgreSQL, a
 * placeholder for DATABASE_URL, whose password is never printed. Pasted without it, a command would change, or create,
 * the default SQLite file.
 */
export function storageVariablesFor(storage: CommandStorage, commandsShareTheEnvironment: boolean): string {
  if (commandsShareTheEnvironment) return '';
  if (storage.postgres) return "DATABASE_URL='<the DATABASE_URL of this server>' ";
  return storage.databasePath === undefined ? '' : `DATABASE_PATH=${shellWord(storage.databasePath)} `;
}

/** `text` as one word of a POSIX shell: as it is when it holds nothing the shell reads, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** commandLineFor this installation, from the process's working folder, after `prefix` (a start's COMMAND_PREFIX). */
export function installedCommandLine(prefix: string): CommandLine {
  return commandLineFor(INSTALL_ROOT, process.cwd(), prefix);
}

let installed: CommandLine | undefined;

/** commandLineFor this installation, from the process's working folder (read once). */
export const commandLine: CommandLine = (command, args) => (installed ??= commandLineFor(INSTALL_ROOT))(command, args);

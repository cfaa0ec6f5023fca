import type { TrustProxySetting } from './config/trust-proxy';
import type { BuildIdentity } from './process/build-identity';
import { commandLine, storageVariablesFor, type CommandLine } from './process/operator-commands';
import { sqliteFileName } from './storage/database-name';
import type { NewSqliteDatabase } from './storage/new-sqlite-database';

/** An account the start message tells the operator about (the demo's `admin`). */
export interface SignInAccount {
  username: string;
  /** True when this start created the account. */
  created: boolean;
  /** The password, only when this start created the account. */
  password?: string;
  /** True when the password was generated (not given). */
  passwordGenerated: boolean;
}

export interface StartMessageInput {
  /** Where the server listens. */
  url: string;
  /** PUBLIC_URL: where staff open it (a proxy in front), said instead, with where the server listens after it. */
  publicUrl?: string;
  account: SignInAccount | undefined;
  /** Put in front of the reset command when the database is not the default one. */
  databasePathForCommand: string | undefined;
  /**
   * The database is PostgreSQL (DATABASE_URL): the command needs the same variable, which may have been given to this
   * start only (`DATABASE_URL=… npm start`); without it the command would change the default SQLite file. The URL
   * itself, which carries a password, is never printed.
   */
  postgres?: boolean;
  /** TRUST_PROXY as read; a hop count gets a reminder of what it must be. */
  trustProxy?: TrustProxySetting;
  /** How commands are written where the server is installed (operator-commands.ts); this installation's by default. */
  commands?: CommandLine;
  /**
   * The commands run with this server's environment (COMMAND_PREFIX: `docker exec` into its container), so the
   * database's variable is not put before them: the container has it already, and before the prefix it would be lost.
   */
  commandsShareTheEnvironment?: boolean;
  /** NODE_ENV as read (`development` when not set); any other than `production` is said, with what it changes. */
  nodeEnv?: string;
  /**
   * The SQLite database this start made, no file or an empty one being there: said, as a mistyped DATABASE_PATH makes
   * one too, and named as every message names a database (`SQLite /data/app.db`, database-name.ts).
   */
  newDatabase?: NewSqliteDatabase;
  /** Which release runs (build-identity.ts) and the database schema it brings: said after where to open it. */
  release?: { identity: BuildIdentity; schema: number };
}

/**
 * What the start message says of a server not running in production: what that mode serves that production does not,
 * for whoever ran an entry by hand (`node dist/entry.js`) without the NODE_ENV the image, `npm start` and `npm run
 * serve` give it.
 */
export function developmentModeNotice(nodeEnv: string | undefined): string | undefined {
  if (nodeEnv === undefined || nodeEnv === 'production') return undefined;
  return (
    `Running with NODE_ENV=${nodeEnv}, not production: failed slots show placeholders naming what failed, source ` +
    'maps and the slot schemas are served, and remote entries over plain http are accepted. Set NODE_ENV=production ' +
    'to run as the image does.'
  );
}

/**
 * What the start message says of a `TRUST_PROXY` hop count: a count above the proxies really in front lets clients
 * choose their address (the server also warns when a request shows it; see trust-proxy-hop-check.ts).
 */
export function trustProxyHopCountNotice(trustProxy: TrustProxySetting | undefined): string | undefined {
  if (typeof trustProxy !== 'number') return undefined;
  const hops = `${trustProxy} proxy hop${trustProxy === 1 ? '' : 's'}`;
  return (
    `TRUST_PROXY=${trustProxy} trusts X-Forwarded-For from ${hops}: it must be exactly the number of proxies in ` +
    "front of this server. A higher count lets clients choose the address the sign-in limits count; the proxies' " +
    'addresses (e.g. TRUST_PROXY=10.0.0.5) cannot be wrong that way.'
  );
}

/** Which release runs, as the start message says it: an operator checking an upgrade reads it there. */
export function releaseLine(identity: BuildIdentity, schema: number): string {
  const built = identity.builtAt === null ? 'not built: run from its sources' : `built ${identity.builtAt}`;
  return `Release: revision ${identity.revision} (${built}), database schema ${schema}.`;
}

/** What the server prints once it listens: where to open it, how to sign in, and what TRUST_PROXY must be. */
export function formatStartMessage(input: StartMessageInput): string {
  const where = storageVariablesFor(
    { postgres: input.postgres === true, databasePath: input.databasePathForCommand },
    input.commandsShareTheEnvironment === true,
  );
  const command = (username: string) => `${where}${(input.commands ?? commandLine)('user:add', username)}`;
  const lines = [
    input.publicUrl === undefined || input.publicUrl === input.url
      ? `Slots platform is ready: open ${input.url}`
      : `Slots platform is ready: open ${input.publicUrl} (this server listens on ${input.url})`,
  ];
  if (input.release) lines.push(releaseLine(input.release.identity, input.release.schema));
  if (input.newDatabase !== undefined) {
    const { file, found } = input.newDatabase;
    const there = found === 'nothing' ? 'none being there' : 'in the empty file (0 bytes) there';
    lines.push(
      `Made a new database at ${sqliteFileName(file)}, ${there}. If this installation's data is in another file, ` +
        'stop the server and set DATABASE_PATH to that file.',
    );
  }
  const account = input.account;
  if (!account) {
    lines.push(`Add a staff account with: ${command('<username>')}`);
  } else if (account.created && account.password !== undefined && account.passwordGenerated) {
    lines.push(
      `Sign in as "${account.username}" with the password: ${account.password}`,
      `This password is printed only now. To change it later: ${command(account.username)}`,
    );
  } else if (account.created) {
    lines.push(`Sign in as "${account.username}" with the password set in DEMO_PASSWORD.`);
  } else {
    lines.push(
      // This start did not create the account, so it cannot tell which of the two its first start used.
      `Sign in as "${account.username}" with the password it got when this database was made ` +
        '(DEMO_PASSWORD then, else the one printed by that first start).',
      `Forgot it? Reset it with: ${command(account.username)}`,
    );
  }
  const hopCountNotice = trustProxyHopCountNotice(input.trustProxy);
  if (hopCountNotice) lines.push(hopCountNotice);
  const modeNotice = developmentModeNotice(input.nodeEnv);
  if (modeNotice) lines.push(modeNotice);
  return `${lines.join('\n')}\n`;
}

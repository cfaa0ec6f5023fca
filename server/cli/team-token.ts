/**
 * `npm run token:add -- <remote> [--expires <days>d]`: creates a team token that publishes releases of that one
 * remote, and prints it alone on the last line (shown once: only its hash is stored). The remote must be one the
 * server knows (its REMOTES_CONFIG, its built-in remotes, or a release in the database): the server refuses releases
 * of any other, and a typo would give a team a token that publishes nothing. `npm run token:revoke -- <token id>`:
 * revokes one (the id is the part between `slt_` and the next `_`, printed when it was created; a whole token is
 * taken for its id). Both are audited with the actor `cli`, in the database the server uses (PostgreSQL at
 * DATABASE_URL, else the SQLite file at DATABASE_PATH). `npm run token:list`: every token's id, remote, creation and
 * state (live, expired, revoked), never a secret nor its hash; what an operator reads to find the id to revoke.
 */
import { storageSettingsFromEnv } from '../env-config';
import { ReleaseStore } from '../releases/release-store';
import { TeamTokenStore } from '../releases/team-token-store';
import { loadRemotesConfig } from '../remotes/remotes-config';
import { teamTokenListing } from './team-token-listing';
import { REMOTE_NAME_PATTERN } from '../../shared';
import { parseTeamTokenArgs, TEAM_TOKEN_USAGE, type TeamTokenArgs } from './team-token-args';
import { frontendDirOf } from './frontend-dir';
import { nextCommand } from './next-command';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';

/** A whole token, `slt_<id>_<secret>`: revoking it needs only its id. */
const WHOLE_TOKEN = /^slt_([0-9a-f]+)_\S+$/;
/** What a token id looks like (team-token-store.ts makes 12 hex digits). */
const TOKEN_ID = /^[0-9a-f]+$/;

/** The length of a token id (team-token-store.ts: 6 random bytes in hex). */
const TOKEN_ID_LENGTH = 12;

/** Says what a token id is, naming the one `given` starts with when it has one, never the rest (a secret). */
function notAnId(given: string): string {
  const id = /^(?:slt_)?([0-9a-f]+)(?:_|$)/.exec(given)?.[1];
  // Part of an id (a token cut short when copied) is not offered as one: revoking it would find nothing.
  const here =
    id === undefined
      ? ''
      : id.length === TOKEN_ID_LENGTH
        ? `, here: ${nextCommand('token:revoke', id)}`
        : `; "${id}" has ${id.length} of its ${TOKEN_ID_LENGTH} hex digits`;
  return (
    'token:revoke takes the token\'s id only: the part between "slt_" and the next "_" (printed when the token was ' +
    `created)${here}. Nothing was changed.`
  );
}

/**
 * The command's arguments, or the message refusing them. A whole token is taken for its id (whoever holds a leaked
 * token can revoke it); part of one (`<id>_<secret>`) is refused with the id to give: it shows the secret was
 * copied by hand, and guessing where it ends is not this command's to do.
 */
function argsOf(argv: readonly string[]): TeamTokenArgs | { refused: string } {
  const [action, subject, ...rest] = argv;
  if (action === 'revoke' && subject !== undefined && rest.length === 0) {
    const whole = WHOLE_TOKEN.exec(subject);
    if (whole?.[1] !== undefined) return { action, id: whole[1] };
    // An id cut short (hex, but not all of it) would only find no token: said, with how many digits are missing.
    if (!TOKEN_ID.test(subject) || subject.length !== TOKEN_ID_LENGTH) return { refused: notAnId(subject) };
  }
  return parseTeamTokenArgs(argv) ?? { refused: `${tokenArgsProblem(argv)}\n${TEAM_TOKEN_USAGE}` };
}

/**
 * What is wrong with arguments parseTeamTokenArgs did not take, as a sentence before the usage: they were answered
 * with the usage alone (`token:add` without its remote, `--expires` without its days), the operator left to spot it.
 */
function tokenArgsProblem(argv: readonly string[]): string {
  const [action, subject, ...rest] = argv;
  if (action !== 'add' && action !== 'revoke' && action !== 'list') {
    return action === undefined ? 'Say add, revoke or list.' : `Unknown action "${action}": add, revoke or list.`;
  }
  if (action === 'list') return `token:list takes nothing more, got "${subject}".`;
  if (subject === undefined) {
    return action === 'add' ? 'Name the remote to make a token for.' : 'Name the id of the token to revoke.';
  }
  if (action === 'revoke') return `token:revoke takes one token id, got "${[subject, ...rest].join('", "')}".`;
  if (!REMOTE_NAME_PATTERN.test(subject)) return `"${subject}" is not a remote's name.`;
  const [option = ''] = rest;
  if (option === '--expires' && rest.length === 1) return '--expires needs a number of days, for example 90d.';
  if (option.startsWith('-') && option !== '--expires' && !option.startsWith('--expires=')) {
    return `Unknown option ${option}.`;
  }
  // What follows the remote and its --expires.
  const extra = rest[option === '--expires' ? 2 : option.startsWith('--expires=') ? 1 : 0];
  return `Unexpected "${extra}" after the remote${option.startsWith('--expires') ? ' and its --expires' : ''}.`;
}

/**
 * The remote names the server knows (its REMOTES_CONFIG, this process's; its built-in remotes; its releases), and
 * those REMOTES_CONFIG pins the releases' origins of.
 */
async function knownRemotes(releases: ReleaseStore): Promise<{ names: string[]; pinned: ReadonlySet<string> }> {
  const config = loadRemotesConfig({ env: process.env, distDir: frontendDirOf(process.env) });
  const names = [...config.remotes, ...config.pending, ...config.disabled].map((remote) => remote.name);
  for (const release of await releases.releases()) names.push(release.remote);
  return { names: [...new Set(names)].sort(), pinned: new Set(config.releaseOrigins?.keys() ?? []) };
}

/**
 * Said when a token is made for a remote whose releases' origins are not pinned: its team may then publish an entry
 * on any origin the entry rules allow that is not on an internal address (release-address-guard.ts), which the
 * server asks before anyone looks.
 */
function unpinnedOriginsWarning(remote: string): string {
  return (
    `Remote "${remote}" has no "releaseOrigins" in REMOTES_CONFIG: this token publishes releases from any origin the ` +
    'entry rules allow off internal addresses (private, link-local, loopback once others reach the product: ' +
    'refused), and the server asks the entry it names. Pin the origins its team deploys to before handing the ' +
    'token over (docs/operators/releases.md#which-origins-a-team-publishes-from).\n'
  );
}

async function main(argv: readonly string[]): Promise<number> {
  const args = argsOf(argv);
  if ('refused' in args) {
    process.stderr.write(`${args.refused}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    const tokens = new TeamTokenStore(engine);
    const audit = new ReleaseStore(engine);
    if (args.action === 'list') {
      process.stdout.write(teamTokenListing(await tokens.list(), where, Date.now(), nextCommand));
      return 0;
    }
    if (args.action === 'revoke') {
      const remote = await tokens.revoke(args.id);
      if (remote === null) {
        // An id is printed once, when its token is made: the listing is where an operator finds it again.
        process.stderr.write(
          `There is no live token "${args.id}" in ${where}. Nothing was changed. Its tokens, with their ids and ` +
            `whether each is live, are listed by ${nextCommand('token:list')}.\n`,
        );
        return 1;
      }
      await audit.record(remote, 'token-revoke', 'cli', { id: args.id }, null);
      process.stdout.write(`Revoked token ${args.id} of "${remote}": it publishes nothing any more.\n`);
      return 0;
    }
    const known = await knownRemotes(audit);
    if (!known.names.includes(args.remote)) {
      process.stderr.write(
        `Remote "${args.remote}" is not known: neither in REMOTES_CONFIG${process.env.REMOTES_CONFIG?.trim() ? '' : ' (not set here)'}, ` +
          `nor built in, nor released in ${where}; the server refuses releases of it. Known remotes: ` +
          `${known.names.join(', ') || 'none'}. Add its REMOTES_CONFIG entry first, and run this command with the ` +
          "server's settings (REMOTES_CONFIG, FRONTEND_DIR, the database's). Nothing was changed.\n",
      );
      return 1;
    }
    const created = await tokens.create(args.remote, args.expiresInMs);
    const expiresAt = created.expiresAt === null ? null : new Date(created.expiresAt).toISOString();
    await audit.record(args.remote, 'token-add', 'cli', null, { id: created.id, expiresAt });
    process.stdout.write(
      `Created token ${created.id} for remote "${args.remote}" in ${where}` +
        `${expiresAt === null ? ', without expiry' : `, expiring ${expiresAt}`}. It is shown once; store it as a CI ` +
        `secret (revoke: ${nextCommand('token:revoke', created.id)}):\n${created.token}\n`,
    );
    // On standard error: the token stays the last line of the output, where scripts take it from.
    if (!known.pinned.has(args.remote)) process.stderr.write(unpinnedOriginsWarning(args.remote));
    return 0;
  });
}

// A failure named as the npm script that was run (`token:add failed: …`), as every command's is.
const action = process.argv[2];
runCommand(
  action === 'add' || action === 'revoke' || action === 'list' ? `token:${action}` : 'token',
  () => main(process.argv.slice(2)),
  `Creates, revokes or lists the team tokens that publish releases of a remote.\n${TEAM_TOKEN_USAGE}`,
  ['--expires'],
);

/**
 * `npm run token:add -- <remote> [--expires <days>d]`: creates a team token that publishes releases of that one
 * remote, and prints it alone on the last line (shown once: only its hash is stored). `npm run token:revoke --
 * <token id>`: revokes one (the id is the part after `slt_`, printed when it was created). Both are audited with the
 * actor `cli`, in the database the server uses (PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH).
 */
import { storageSettingsFromEnv } from '../config/config';
import { ReleaseStore } from '../releases/release-store';
import { TeamTokenStore } from '../releases/team-token-store';
import { describeStorage, openMigratedStorage } from '../storage/open-storage';
import { parseTeamTokenArgs, TEAM_TOKEN_USAGE } from './team-token-args';
import { runCommand } from './run-command';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseTeamTokenArgs(argv);
  if (args === null) {
    process.stderr.write(`${TEAM_TOKEN_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  const engine = await openMigratedStorage(settings);
  const where = describeStorage(settings);
  try {
    const tokens = new TeamTokenStore(engine);
    const audit = new ReleaseStore(engine);
    if (args.action === 'revoke') {
      const remote = await tokens.revoke(args.id);
      if (remote === null) {
        process.stderr.write(`There is no live token "${args.id}" in ${where}. Nothing was changed.\n`);
        return 1;
      }
      await audit.record(remote, 'token-revoke', 'cli', { id: args.id }, null);
      process.stdout.write(`Revoked token ${args.id} of "${remote}": it publishes nothing any more.\n`);
      return 0;
    }
    const created = await tokens.create(args.remote, args.expiresInMs);
    const expiresAt = created.expiresAt === null ? null : new Date(created.expiresAt).toISOString();
    await audit.record(args.remote, 'token-add', 'cli', null, { id: created.id, expiresAt });
    process.stdout.write(
      `Created token ${created.id} for remote "${args.remote}" in ${where}` +
        `${expiresAt === null ? ', without expiry' : `, expiring ${expiresAt}`}. It is shown once; store it as a CI ` +
        `secret (revoke: npm run token:revoke -- ${created.id}):\n${created.token}\n`,
    );
    return 0;
  } finally {
    await engine.close();
  }
}

runCommand('token change', () => main(process.argv.slice(2)));

/**
 * `npm run user:remove -- <username> [--yes]`: removes a staff account from the database (PostgreSQL at DATABASE_URL,
 * else the SQLite file at DATABASE_PATH), with its memberships, grants and sessions. Its sessions in Redis are deleted
 * too when REDIS_URL is set, as the servers have it: Redis is reached before anything is removed, so one not answering
 * changes nothing; one failing after the account is removed is said as that (the account removed, the sessions left
 * there), not as a plain failure. Without REDIS_URL the command cannot know whether the servers keep sessions in
 * Redis, so it says what it did and what stays there if they do: those sessions are refused at their next request all
 * the same (the account is gone), and expire. What other tables keep of it (audit trails, releases, placement
 * revisions) stays, naming it. The last account able to administer is refused (administrators.ts). On a terminal it
 * asks first; without one, `--yes` is required, so a script never removes an account it did not say it meant to.
 */
import pino from 'pino';
import { redisUrlFromEnv, storageSettingsFromEnv } from '../env-config';
import { NoSuchAccountError, removeAccount, type AccountRemoval } from '../auth/account-removal';
import { endRedisSessionsOf, RedisSessionsNotAllEndedError } from '../auth/redis-account-sessions';
import { createRedisSessionStorage } from '../storage/redis-session-storage';
import { LastAdministratorError } from '../auth/administrators';
import { commandLine } from '../process/operator-commands';
import { argumentProblem } from './argument-problem';
import { confirmRemoval, notConfirmedMessage } from './confirm-removal';
import { lastAdministratorMessage } from './last-administrator-message';
import { nextCommand } from './next-command';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import type { StorageEngine } from '../storage/storage-engine';
import type { RedisStore } from 'connect-redis';

export const USER_REMOVE_USAGE = `usage: ${commandLine('user:remove', '<username> [--yes]')}`;

async function main(args: readonly string[]): Promise<number> {
  const yes = args.includes('--yes');
  const [username] = args.filter((arg) => arg !== '--yes');
  const problem = argumentProblem(args, ['--yes'], 'username');
  if (problem !== null || username === undefined) {
    process.stderr.write(`${problem ? `${problem}\n` : ''}${USER_REMOVE_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  const redisUrl = redisUrlFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    try {
      return await remove(engine, username, where, yes, redisUrl);
    } catch (error) {
      if (error instanceof LastAdministratorError) {
        process.stderr.write(`${lastAdministratorMessage(error)}\n`);
        return 1;
      }
      if (!(error instanceof NoSuchAccountError)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
  });
}

async function remove(
  engine: StorageEngine,
  username: string,
  where: string,
  yes: boolean,
  redisUrl: string | undefined,
): Promise<number> {
  const plan = await removeAccount(engine, username, where, { planOnly: true });
  const confirmation = await confirmRemoval(`Remove ${describe(plan)} from ${where}?`, yes);
  if (confirmation !== 'confirmed') {
    process.stderr.write(
      `${notConfirmedMessage(confirmation, nextCommand('user:remove', `${plan.username} --yes`))}\n`,
    );
    return 1;
  }
  // The server's own Redis session store, reached before anything is removed: one not answering changes nothing.
  const redis = redisUrl ? createRedisSessionStorage({ url: redisUrl, logger: pino({ level: 'silent' }) }) : null;
  try {
    await redis?.ready();
    // Checked and counted again in the removing transaction: an answer typed slowly may follow another change.
    const removed = await removeAccount(engine, plan.username, where);
    const removedLine = `Removed ${describe(removed)} from ${where}.`;
    const historyLine = 'What the audit trails, releases and placement revisions say it did stays, under its name.';
    if (!redis) {
      process.stdout.write(
        `${removedLine} Its sessions in the database ended with it. REDIS_URL is not set here: if the servers keep ` +
          `sessions in Redis, its sessions there stay stored until they expire (user:remove deletes them at once when ` +
          `run with the servers' REDIS_URL); either way each is refused at its next request, the account being ` +
          `gone. ${historyLine}\n`,
      );
      return 0;
    }
    try {
      const ended = await endRedisSessionsOf(redis.store as RedisStore, removed.id);
      process.stdout.write(
        `${removedLine} Its sessions ended with it, in the database and in ${redis.displayName} ` +
          `(${ended} there). ${historyLine}\n`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof RedisSessionsNotAllEndedError)) throw error;
      // The account is gone: said first, on stdout, as a removal; what failed after it, and what that leaves, on stderr.
      process.stdout.write(`${removedLine} Its sessions in the database ended with it. ${historyLine}\n`);
      const before =
        error.deleted === 0
          ? 'before deleting any of its sessions there'
          : `after deleting ${error.deleted === 1 ? 'one of its sessions' : `${error.deleted} of its sessions`} there`;
      process.stderr.write(
        `The account is removed, but ${redis.displayName} failed ${before}: ${error.message.replace(/\.$/, '')}. Those left there stay ` +
          'stored until they expire, each refused at its next request, the account being gone. There is nothing to ' +
          'run again: user:remove would find no account.\n',
      );
      return 1;
    }
  } finally {
    await redis?.close();
  }
}

/** The account and what goes with it, in words. */
function describe(removal: AccountRemoval): string {
  const parts = [`tenants: ${removal.tenants.join(', ') || 'none'}`, `grants: ${removal.grants.join(', ') || 'none'}`];
  const keys = removal.recordCreationKeys;
  if (keys > 0)
    parts.push(keys === 1 ? 'an idempotency key of a record creation' : `${keys} idempotency keys of record creations`);
  return `the account "${removal.username}" (${parts.join('; ')})`;
}

runCommand(
  'user:remove',
  () => main(process.argv.slice(2)),
  `Removes a staff account with its memberships, grants and sessions.\n${USER_REMOVE_USAGE}`,
);

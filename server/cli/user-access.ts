/**
 * `npm run user:disable -- <username>` / `npm run user:enable -- <username>`: takes an account's access away (it
 * can no longer sign in, and every open session of it ends at its next request, on every instance and session
 * store) or gives it back, in the database (PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH).
 * Nothing else of the account changes. Disabling the last account able to administer is refused (administrators.ts).
 */
import { storageSettingsFromEnv } from '../env-config';
import { UserStore } from '../auth/user-store';
import { changeAccount } from '../auth/account-change';
import { LastAdministratorError } from '../auth/administrators';
import { argumentProblem } from './argument-problem';
import { lastAdministratorMessage } from './last-administrator-message';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

export const USER_ACCESS_USAGE = `usage: ${commandLine('user:disable', '<username>')}   |   ${commandLine('user:enable', '<username>')}`;

async function main(args: readonly string[]): Promise<number> {
  const [action, username] = args;
  const problem = argumentProblem(args.slice(1), [], 'username');
  if ((action !== 'disable' && action !== 'enable') || problem !== null || username === undefined) {
    process.stderr.write(`${problem ? `${problem}\n` : ''}${USER_ACCESS_USAGE}\n`);
    return 2;
  }
  const settings = storageSettingsFromEnv(process.env);
  return withStorage(settings, async (engine, where) => {
    const users = new UserStore(engine);
    const wasDisabled = await users.isDisabled(username);
    if (wasDisabled === (action === 'disable') && (await users.findByUsername(username))) {
      // Nothing to do: said as it is, not as a change (enabling an account that was never disabled is no news).
      process.stdout.write(
        `"${username}" is already ${wasDisabled ? 'disabled' : 'enabled'} in ${where}` +
          `${wasDisabled ? '' : ': it can sign in with its password'}. Nothing was changed.\n`,
      );
      return 0;
    }
    let changed;
    try {
      changed = await changeAccount(engine, username, { disabled: action === 'disable' });
    } catch (error) {
      if (!(error instanceof LastAdministratorError)) throw error;
      process.stderr.write(`${lastAdministratorMessage(error)}\n`);
      return 1;
    }
    if (!changed) {
      process.stderr.write(`There is no account "${username}" in ${where}. Nothing was changed.\n`);
      return 1;
    }
    // Where, as every command says it: run without the servers' DATABASE_URL (the SQLite file a copy left behind),
    // the account would stay signed in on them, the command saying otherwise.
    process.stdout.write(
      action === 'disable'
        ? `Disabled "${username}" in ${where}: it cannot sign in, and its open sessions end at their next request.\n`
        : `Enabled "${username}" again in ${where}: it can sign in with its password.\n`,
    );
    return 0;
  });
}

// A failure named as the npm script that was run (`user:disable failed: …`), as every command's is.
runCommand(
  process.argv[2] === 'enable' ? 'user:enable' : 'user:disable',
  () => main(process.argv.slice(2)),
  `Takes an account's access away (its sessions end at once), or gives it back.\n${USER_ACCESS_USAGE}`,
);

import path from 'node:path';
import { databasePathFromEnv, DEFAULT_DATABASE_PATH } from '../env-config';
import { commandLine, commandPrefix, storageVariablesFor, type CommandLine } from '../process/operator-commands';

/**
 * commandLine for a command that a command prints as the next step, with the DATABASE_PATH or DATABASE_URL it was
 * given before it, so that pasted as printed it works on the same database: `DATABASE_PATH=… npm run user:add -- eve`
 * said "create one with npm run tenant:add -- <id>", which pasted made `./data/app.db` and a tenant no one used.
 */
export const nextCommand: CommandLine = (command, args) => {
  const env = process.env;
  const databasePath = databasePathFromEnv(env);
  const storage = {
    postgres: Boolean(env.DATABASE_URL?.trim()),
    ...(databasePath === path.resolve(DEFAULT_DATABASE_PATH) ? {} : { databasePath }),
  };
  return `${storageVariablesFor(storage, commandPrefix(env) !== '')}${commandLine(command, args)}`;
};

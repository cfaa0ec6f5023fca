/**
 * `npm run remotes:reload`: asks every running host on this database to re-read its REMOTES_CONFIG, as `kill -HUP`
 * does for one process, without a pid: a supervisor (systemd, Kubernetes, CI) runs it with the server's database
 * settings (DATABASE_URL, else DATABASE_PATH) and its REMOTES_CONFIG (and FRONTEND_DIR, NODE_ENV). Each host sees
 * the request at its next poll (about a second).
 *
 * The file is read first, as the hosts read it: an invalid one is refused here, its problem printed and exit code 1,
 * and no host is asked (each would refuse it with a line in its own log, which whoever ran the command never sees).
 * The hosts still check what only they know (the slots their code registers) and keep their configuration when it
 * fails.
 */
import path from 'node:path';
import { DEFAULT_DIST_DIR } from '../app-options';
import { storageSettingsFromEnv } from '../config/config';
import { ReleaseStore } from '../releases/release-store';
import { loadRemotesConfig } from '../remotes/remotes-config';
import { RemotesConfigError } from '../remotes/remotes-config-error';
import { describeStorage, openMigratedStorage } from '../storage/open-storage';
import { runCommand } from './run-command';

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    process.stderr.write('usage: npm run remotes:reload\n');
    return 2;
  }
  const refused = remotesConfigProblem(process.env);
  if (refused !== null) {
    process.stderr.write(`${refused}\nNo host was asked to re-read it: they keep the configuration in use.\n`);
    return 1;
  }
  const settings = storageSettingsFromEnv(process.env);
  const engine = await openMigratedStorage(settings);
  try {
    await new ReleaseStore(engine).requestConfigReload();
    process.stdout.write(
      `Asked every host on ${describeStorage(settings)} to re-read REMOTES_CONFIG (within about a second; ` +
        'each logs whether it took the file).\n',
    );
    return 0;
  } finally {
    await engine.close();
  }
}

/** Why the hosts would refuse this process's REMOTES_CONFIG, read as they read it; null when they would read it. */
function remotesConfigProblem(env: NodeJS.ProcessEnv): string | null {
  const frontendDir = env.FRONTEND_DIR?.trim();
  try {
    loadRemotesConfig({ env, distDir: frontendDir ? path.resolve(frontendDir) : DEFAULT_DIST_DIR });
    return null;
  } catch (error) {
    if (error instanceof RemotesConfigError) return `The remotes configuration is invalid: ${error.message}`;
    throw error;
  }
}

runCommand('remotes:reload', main);

/**
 * `npm run remotes:reload`: asks every running host on this database to re-read its REMOTES_CONFIG, as `kill -HUP`
 * does for one process, without a pid: a supervisor (systemd, Kubernetes, CI) runs it with the server's database
 * settings (DATABASE_URL, else DATABASE_PATH). Each host sees the request at its next poll (about a second).
 */
import { storageSettingsFromEnv } from '../config/config';
import { ReleaseStore } from '../releases/release-store';
import { describeStorage, openMigratedStorage } from '../storage/open-storage';
import { runCommand } from './run-command';

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    process.stderr.write('usage: npm run remotes:reload\n');
    return 2;
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

runCommand('remotes:reload', main);

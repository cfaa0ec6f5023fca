/**
 * `npm run remotes:reload`: asks every running host on this database to re-read its REMOTES_CONFIG, as `kill -HUP`
 * does for one process, without a pid: a supervisor (systemd, Kubernetes, CI) runs it with the server's database
 * settings (DATABASE_URL, else DATABASE_PATH) and its REMOTES_CONFIG (and FRONTEND_DIR, NODE_ENV,
 * REMOTE_DESCRIPTOR_TIMEOUT_MS: how long an origin may take to answer, here as on the hosts). Each host sees
 * the request at its next poll (about a second).
 *
 * The file is read first, as the hosts read it (remotes-reload-check.ts): one they would refuse is refused here with
 * the line they would log and exit code 1, and no host is asked (each would refuse it in its own log, which whoever
 * ran the command never sees). A remote declared by entry alone is read from its origin as a host reads it
 * (remotes-reload-origins.ts); one not reached here is said, not refused. What passes here is not known to be
 * taken: each host reads its own file with its own settings, and checks its slots against the slots its code
 * registers; the output says so rather than claim more.
 */
import type { RemoteRelease } from '../../shared';
import { storageSettingsFromEnv } from '../env-config';
import { ReleaseStore } from '../releases/release-store';
import { HttpDescriptorSource } from '../remotes/http-descriptor-source';
import { remoteDescriptorTimeoutFromEnv } from '../remotes/remote-descriptor-timeout';
import { checkRemotesConfigHere } from './remotes-reload-check';
import { readEntryRemotes } from './remotes-reload-origins';
import { runCommand } from './run-command';
import { withStorage } from './with-storage';
import { commandLine } from '../process/operator-commands';

const REMOTES_RELOAD_USAGE = `usage: ${commandLine('remotes:reload')}`;

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    // What is wrong first, as the other commands say it: the usage alone left the operator to guess.
    const words = process.argv
      .slice(2)
      .map((arg) => `"${arg}"`)
      .join(', ');
    process.stderr.write(`remotes:reload takes no arguments, got ${words}.\n${REMOTES_RELOAD_USAGE}\n`);
    return 2;
  }
  // Read first, as a host reads it at its start: a value a host would refuse is refused before anything is asked.
  const timeoutMs = remoteDescriptorTimeoutFromEnv(process.env);
  const check = checkRemotesConfigHere(process.env);
  if (check.refusal !== null) {
    process.stderr.write(`${check.refusal}\n${check.checked}\nNo host was asked to re-read it.\n`);
    return 1;
  }
  return withStorage(storageSettingsFromEnv(process.env), async (engine, where) => {
    const store = new ReleaseStore(engine);
    const stored = await store.releases();
    const inForce = await releasesInForce(store, stored);
    // Checked again with the releases in force: every host checks the file's slots of such a remote against the
    // release's stored descriptor, not against what the file says of it. A remote declared by entry alone is read
    // from its origin as a host reads it, and the file's slots of those that answer checked against what they said.
    const withReleases = checkRemotesConfigHere(process.env, process.cwd(), inForce);
    const { answered, unchecked } = await readEntryRemotes(
      withReleases.pending,
      stored,
      inForce,
      withReleases.served,
      new HttpDescriptorSource({ timeoutMs }),
    );
    const withOrigins = checkRemotesConfigHere(process.env, process.cwd(), inForce, answered);
    const notChecked = unchecked.map((line) => `${line}\n`).join('');
    if (withOrigins.refusal !== null) {
      process.stderr.write(
        `${withOrigins.refusal}\n${withOrigins.checked}\n${notChecked}No host was asked to re-read it.\n`,
      );
      return 1;
    }
    await store.requestConfigReload();
    process.stdout.write(
      `${withOrigins.checked} It passes.\n${notChecked}` +
        `Asked every host on ${where} to re-read REMOTES_CONFIG (within about a second).\n` +
        'Whether each takes it is not known here: a host reads its own REMOTES_CONFIG with its own settings and ' +
        `also checks the file's slots against its code's. Each logs "Remotes configuration reloaded." or why it ` +
        'kept the previous configuration (slots_remotes_config_reloads_total{outcome} counts both).\n',
    );
    return 0;
  });
}

/** Each remote's release in force (its active one) as the database holds it. */
async function releasesInForce(store: ReleaseStore, releases: readonly RemoteRelease[]): Promise<RemoteRelease[]> {
  const rollouts = await store.rollouts();
  const active = new Set(
    rollouts.flatMap(({ remote, active: version }) => (version === null ? [] : [`${remote}\0${version}`])),
  );
  return releases.filter(({ remote, version }) => active.has(`${remote}\0${version}`));
}

runCommand(
  'remotes:reload',
  main,
  `Checks REMOTES_CONFIG as the hosts read it, then asks every host on the database to re-read it.\n${REMOTES_RELOAD_USAGE}`,
);

/**
 * A SQLite backup taken from the running container and put back with `db:restore`, as deploy.md's "Backup and restore
 * with containers" says: the backup copied out of the volume, the container stopped, the command run in a throwaway
 * container of the same image as root (the backup, mode 0600, belongs to whoever copied it out), the container
 * started again on the restored file, which belongs to the server's user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildAppImage } from '../../testing/containers/app-image';
import { startContainer, type Container } from '../../testing/containers/container';
import { podman } from '../../testing/containers/podman';
import { pollUntil } from '../../testing/containers/poll-until';
import { describeWithCommand } from '../../testing/describe-with-command';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const DEMO_PASSWORD = 'restore-image-demo-password';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');

function log(line: string): void {
  process.stderr.write(`[container restore] ${line}\n`);
}

async function signIn(url: string, username: string, password: string): Promise<number> {
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return answer.status;
}

describeWithPodman('db:restore in a throwaway container (deploy.md)', () => {
  let image: string;
  let container: Container | undefined;
  let files: TempDir;
  const volume = `slots-restore-data-${process.pid}`;

  beforeAll(async () => {
    files = makeTempDir('container-restore-');
    const started = Date.now();
    image = await buildAppImage({ log });
    log(`built ${image} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }, 40 * 60_000);

  afterAll(async () => {
    await container?.remove();
    await podman(['volume', 'rm', '--force', volume], { allowFailure: true });
    files?.remove();
  }, 60_000);

  it(
    'puts the backup back: the account made before it signs in, the one made after it does not',
    async () => {
      container = await startContainer({
        image,
        namePrefix: 'slots-restore-test',
        readOnly: true,
        volumes: [`${volume}:/data`],
        env: { DEMO_PASSWORD },
        publish: [3000],
      });
      const url = `http://127.0.0.1:${container.hostPort(3000)}`;
      const healthy = async () => (await fetch(`${url}/healthz`).catch(() => null))?.status === 200;
      await pollUntil('the container answers /healthz', 60_000, healthy);
      const addUser = async (username: string) => {
        const added = await container!.exec(['node', 'dist/server/cli/user-add.js', username, '--tenant', 'acme'], {
          input: `${username}-password-in-image\n`,
        });
        expect([username, added.code, added.stderr]).toEqual([username, 0, '']);
      };

      // The backup, as the guide takes it: to the volume, then out of the container, then off the volume.
      await addUser('ada');
      const backup = await container.exec(['node', 'dist/server/cli/db-backup.js', '/data/backup.db']);
      expect([backup.code, backup.stderr]).toEqual([0, '']);
      await podman(['cp', `${container.name}:/data/backup.db`, path.join(files.path, 'slots-backup.db')]);
      expect((await container.exec(['rm', '/data/backup.db'])).code).toBe(0);
      await addUser('eve');
      expect(await signIn(url, 'eve', 'eve-password-in-image')).toBe(200);

      await container.signal('SIGTERM');
      expect(await container.waitForExit()).toBe(0);
      const restore = await podman(
        [
          ...['run', '--rm', '--volume', `${volume}:/data`, '--volume', `${files.path}:/backup:ro`, '--user', '0:0'],
          // The image's HEALTHCHECK is the server's; podman, without systemd here, logs an error for it on stderr.
          ...['--no-healthcheck', image, 'node', 'dist/server/cli/db-restore.js', '/backup/slots-backup.db'],
        ],
        { allowFailure: true },
      );
      log(restore.stdout);
      expect([restore.code, restore.stderr]).toEqual([0, '']);

      await podman(['start', container.name]);
      await pollUntil('the restarted container answers /healthz', 60_000, healthy);
      expect(await signIn(url, 'ada', 'ada-password-in-image')).toBe(200);
      expect(await signIn(url, 'eve', 'eve-password-in-image')).toBe(401);
      // The restored file is the server's user's, as the volume's other files, and the database as it was is kept.
      const listing = (await container.exec(['ls', '-ln', '/data'])).stdout;
      expect(listing).toMatch(/^-rw------- +1 1000 +1000 .* app\.db$/m);
      expect(listing).toMatch(/ app\.db\.before-restore-\S+$/m);
      expect(fs.readdirSync(files.path)).toEqual(['slots-backup.db']);
    },
    5 * 60_000,
  );
});

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { commandLine, commandLineFor, commandPrefix, storageVariablesFor } from './operator-commands';

let root: TempDir;
beforeEach(() => {
  root = makeTempDir('slots-operator-commands-');
});
afterEach(() => root.remove());

describe('commandLineFor', () => {
  it('writes npm scripts where a package.json beside dist/ has them (a checkout, an unpacked release)', () => {
    writeFileSync(
      path.join(root.path, 'package.json'),
      JSON.stringify({ scripts: { 'user:add': 'node dist/server/cli/user-add.js', 'token:revoke': '...' } }),
    );
    const command = commandLineFor(root.path, root.path);
    expect(command('user:add', 'ann --tenant acme')).toBe('npm run user:add -- ann --tenant acme');
    expect(command('token:revoke', '0123456789ab')).toBe('npm run token:revoke -- 0123456789ab');
    // A script the package.json does not have is written as its compiled file.
    expect(command('db:backup', '<new file>')).toBe('node dist/server/cli/db-backup.js <new file>');
    // From another folder, where npm run would find no script (or another project's): the compiled file's whole path.
    expect(commandLineFor(root.path, '/')('user:add', 'ann')).toBe(
      `node ${path.join(root.path, 'dist/server/cli/user-add.js')} ann`,
    );
  });

  it('writes the compiled files where there is no package.json (the image), from where the operator stands', () => {
    expect(commandLineFor(root.path, root.path)('user:add', 'ann')).toBe('node dist/server/cli/user-add.js ann');
    expect(commandLineFor(root.path, root.path)('token:add', '<remote>')).toBe(
      'node dist/server/cli/team-token.js add <remote>',
    );
    expect(commandLineFor(root.path, root.path)('remotes:reload')).toBe('node dist/server/cli/remotes-reload.js');
    // Elsewhere, the path that works from anywhere.
    expect(commandLineFor(root.path, '/')('user:disable', 'ann')).toBe(
      `node ${path.join(root.path, 'dist/server/cli/user-access.js')} disable ann`,
    );
  });

  it('puts COMMAND_PREFIX before either form, for commands run in a container from outside it', () => {
    const inImage = commandLineFor(root.path, root.path, 'docker exec -it <container>');
    expect(inImage('user:add', 'ann')).toBe('docker exec -it <container> node dist/server/cli/user-add.js ann');
    writeFileSync(path.join(root.path, 'package.json'), JSON.stringify({ scripts: { 'tenant:add': '...' } }));
    const inPod = commandLineFor(root.path, root.path, 'kubectl exec -it deploy/slots-platform --');
    expect(inPod('tenant:add', 'acme')).toBe('kubectl exec -it deploy/slots-platform -- npm run tenant:add -- acme');
  });

  it('takes a package.json it cannot read for none', () => {
    writeFileSync(path.join(root.path, 'package.json'), '{ not json');
    expect(commandLineFor(root.path, root.path)('flag', 'list')).toBe('node dist/server/cli/feature-flag.js list');
  });
});

describe('commandLine', () => {
  it("writes this checkout's npm scripts", () => {
    expect(commandLine('tenant:add', 'acme')).toBe('npm run tenant:add -- acme');
    expect(commandLine('remotes:reload')).toBe('npm run remotes:reload');
  });
});

describe('commandPrefix', () => {
  it('reads COMMAND_PREFIX trimmed, and none when it is unset or blank', () => {
    expect(commandPrefix({ COMMAND_PREFIX: '  docker exec -it slots ' })).toBe('docker exec -it slots');
    expect(commandPrefix({ COMMAND_PREFIX: '   ' })).toBe('');
    expect(commandPrefix({})).toBe('');
  });
});

describe('storageVariablesFor', () => {
  it('puts the database a printed command needs before it, as one shell word, unless the commands share the environment', () => {
    expect(storageVariablesFor({ postgres: false }, false)).toBe('');
    expect(storageVariablesFor({ postgres: false, databasePath: '/srv/slots/app.db' }, false)).toBe(
      'DATABASE_PATH=/srv/slots/app.db ',
    );
    expect(storageVariablesFor({ postgres: false, databasePath: "/srv/ann's data/app.db" }, false)).toBe(
      "DATABASE_PATH='/srv/ann'\\''s data/app.db' ",
    );
    // The URL holds a password: never printed.
    expect(storageVariablesFor({ postgres: true }, false)).toBe("DATABASE_URL='<the DATABASE_URL of this server>' ");
    expect(storageVariablesFor({ postgres: false, databasePath: '/srv/slots/app.db' }, true)).toBe('');
  });

  it('is read by a shell as the variable it sets, placeholder too: pasted, it opens no unbalanced quote', () => {
    for (const storage of [
      { postgres: true },
      { postgres: false, databasePath: "/srv/ann's data/app.db" },
      { postgres: false, databasePath: '/srv/slots/app.db' },
    ]) {
      const line = `${storageVariablesFor(storage, false)}printenv DATABASE_URL DATABASE_PATH`;
      const run = spawnSync('sh', ['-c', line], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect([line, run.stderr]).toEqual([line, '']);
      expect(run.stdout.trim()).toBe(storage.postgres ? '<the DATABASE_URL of this server>' : storage.databasePath);
    }
  });
});

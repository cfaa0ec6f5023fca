import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';

/** REMOTES_CONFIG declaring team_billing (and FRONTEND_DIR with no built-in remote): the remotes the CLI knows. */
let declared: TempDir;
let remotesEnv: NodeJS.ProcessEnv;

/** A server command on the SQLite file at `database`, with the server's REMOTES_CONFIG. */
function run(script: string, args: string[], database: string, input = ''): Promise<CommandRun> {
  return runServerCommand(script, args, { DATABASE_PATH: database, DATABASE_URL: '', ...remotesEnv }, input);
}

jest.setTimeout(60_000);

describe('npm run token:add / token:revoke / token:list / user:add --role', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    declared = makeTempDir('slots-token-remotes-');
    const configFile = path.join(declared.path, 'remotes.json');
    const listed = {
      name: 'team_billing',
      entry: 'https://billing.example.com/remoteEntry.js',
      components: ['Banner'],
    };
    const pinned = {
      name: 'team_pinned',
      entry: 'https://pinned.example.com/remoteEntry.js',
      components: ['PinnedBanner'],
      releaseOrigins: ['https://cdn.example.com'],
    };
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [listed, pinned] }));
    remotesEnv = { REMOTES_CONFIG: configFile, FRONTEND_DIR: path.join(declared.path, 'dist') };
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
    declared.remove();
  });

  it('prints the new token alone on its last line; it publishes for that remote until revoked; both audited as cli', async () => {
    const added = await run('team-token.ts', ['add', 'team_billing', '--expires', '30d'], testApp.databasePath);
    expect(added.code).toBe(0);
    const token = added.stdout.trimEnd().split('\n').at(-1) as string;
    expect(token).toMatch(/^slt_[0-9a-f]+_\S+$/);
    const checked = await testApp.app.releases.teamTokens.check(token);
    expect(checked).toMatchObject({ status: 'valid', remote: 'team_billing' });
    const id = checked.status === 'valid' ? checked.id : '';

    const revoked = await run('team-token.ts', ['revoke', id], testApp.databasePath);
    expect(revoked.code).toBe(0);
    expect(await testApp.app.releases.teamTokens.check(token)).toMatchObject({ status: 'revoked', id });
    expect((await run('team-token.ts', ['revoke', id], testApp.databasePath)).code).toBe(1);

    const history = await testApp.app.releases.store.history('team_billing');
    expect(history.map((entry) => [entry.action, entry.actor, entry.before, entry.after])).toEqual([
      ['token-revoke', 'cli', { id }, null],
      ['token-add', 'cli', null, { id, expiresAt: expect.any(String) }],
    ]);
  });

  it("warns on standard error when the remote's release origins are not pinned, keeping the token the last line", async () => {
    const unpinned = await run('team-token.ts', ['add', 'team_billing'], testApp.databasePath);
    expect(unpinned.code).toBe(0);
    expect(unpinned.stdout.trimEnd().split('\n').at(-1)).toMatch(/^slt_[0-9a-f]+_\S+$/);
    expect(unpinned.stderr).toBe(
      'Remote "team_billing" has no "releaseOrigins" in REMOTES_CONFIG: this token publishes releases from any origin ' +
        'the entry rules allow off internal addresses (private, link-local, loopback once others reach the product: ' +
        'refused), and the server asks the entry it names. Pin the origins its team deploys to before handing the token over ' +
        '(docs/operators/releases.md#which-origins-a-team-publishes-from).\n',
    );
    const pinned = await run('team-token.ts', ['add', 'team_pinned'], testApp.databasePath);
    expect([pinned.code, pinned.stderr]).toEqual([0, '']);
  });

  it('refuses a token for a remote the server does not know, naming those it knows; a released one is known', async () => {
    const refused = await run('team-token.ts', ['add', 'team_nonexist'], testApp.databasePath);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'Remote "team_nonexist" is not known: neither in REMOTES_CONFIG, nor built in, nor released in',
    );
    expect(refused.stderr).toContain('Known remotes: team_billing, team_pinned.');
    expect(await testApp.app.releases.store.history('team_nonexist')).toEqual([]);

    // A remote served by a release (its REMOTES_CONFIG entry gone since) still gets a token.
    const release = { remote: 'team_legacy', components: ['Old'], formComponents: [], props: {} };
    await testApp.app.releases.store.publish({
      ...release,
      version: '1',
      entry: 'https://x.example/mf-manifest.json',
      publishedBy: 'test',
    });
    const added = await run('team-token.ts', ['add', 'team_legacy'], testApp.databasePath);
    expect(added.code).toBe(0);
  });

  it('revokes by the id, or by a whole token, and refuses part of a token without echoing its secret', async () => {
    const { id, token } = await testApp.app.releases.teamTokens.create('team_billing', null);
    const secret = token.slice(`slt_${id}_`.length);

    for (const given of [token.slice('slt_'.length), `${id}_`, `slt_${id}`]) {
      const refused = await run('team-token.ts', ['revoke', given], testApp.databasePath);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        'token:revoke takes the token\'s id only: the part between "slt_" and the next "_" (printed when the token ' +
          `was created), here: DATABASE_PATH=${testApp.databasePath} npm run token:revoke -- ${id}. Nothing was changed.\n`,
      );
    }
    // A token cut short when copied: its id part is not offered as an id.
    const cut = await run('team-token.ts', ['revoke', `slt_${id.slice(0, 6)}`], testApp.databasePath);
    expect(cut.code).toBe(2);
    expect(cut.stderr).toContain(`; "${id.slice(0, 6)}" has 6 of its 12 hex digits. Nothing was changed.`);
    expect(cut.stderr).not.toContain('here: npm run token:revoke');
    // An id cut short, given alone, says the same rather than "There is no live token".
    const shortId = await run('team-token.ts', ['revoke', id.slice(0, 8)], testApp.databasePath);
    expect([shortId.code, shortId.stderr]).toEqual([
      2,
      expect.stringContaining(`; "${id.slice(0, 8)}" has 8 of its 12 hex digits. Nothing was changed.`),
    ]);
    const garbage = await run('team-token.ts', ['revoke', 'not-a-token'], testApp.databasePath);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).not.toContain('not-a-token');
    expect(await testApp.app.releases.teamTokens.check(token)).toMatchObject({ status: 'valid' });

    const revoked = await run('team-token.ts', ['revoke', token], testApp.databasePath);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked token ${id} of "team_billing": it publishes nothing any more.\n`);
    expect(`${revoked.stdout}${revoked.stderr}`).not.toContain(secret);
    expect(await testApp.app.releases.teamTokens.check(token)).toMatchObject({ status: 'revoked', id });
  });

  it("lists every token's id, remote, creation and state, never its secret nor its hash", async () => {
    const tokens = testApp.app.releases.teamTokens;
    const live = await tokens.create('team_pinned', 30 * 24 * 60 * 60 * 1000);
    const revoked = await tokens.create('team_pinned', null);
    await tokens.revoke(revoked.id);
    // A longer remote's name: the remotes' column is as wide as it.
    await tokens.create('team_billing', null);

    const listed = await run('team-token.ts', ['list'], testApp.databasePath);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    const lineOf = (id: string) => listed.stdout.split('\n').find((line) => line.startsWith(id));
    expect(lineOf(live.id)).toMatch(/^\w{12} {2}team_pinned {3}created [\d-]{10} [\d:]{5} UTC {2}live until .+ UTC$/);
    expect(lineOf(revoked.id)).toMatch(/^\w{12} {2}team_pinned {3}created .+ UTC {2}revoked [\d-]{10} [\d:]{5} UTC$/);
    for (const { id, token } of [live, revoked]) {
      expect(listed.stdout).not.toContain(token.slice(`slt_${id}_`.length));
      expect(listed.stdout).not.toContain(createHash('sha256').update(token).digest('hex'));
    }
  });

  it('says there are no tokens, and how to make one, in a database without any', async () => {
    const empty = await createTestApp();
    try {
      const listed = await run('team-token.ts', ['list'], empty.databasePath);
      expect([listed.code, listed.stderr]).toEqual([0, '']);
      expect(listed.stdout).toBe(
        `There are no team tokens in SQLite ${empty.databasePath}. Make one with ` +
          `DATABASE_PATH=${empty.databasePath} npm run token:add -- <remote>.\n`,
      );
    } finally {
      await empty.close();
    }
  });

  it('points to token:list when the id to revoke is no live token', async () => {
    const unknown = await run('team-token.ts', ['revoke', '0123456789ab'], testApp.databasePath);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `There is no live token "0123456789ab" in SQLite ${testApp.databasePath}. Nothing was changed. Its ` +
        `tokens, with their ids and whether each is live, are listed by DATABASE_PATH=${testApp.databasePath} npm run ` +
        'token:list.\n',
    );
  });

  it('refuses a malformed command with its usage', async () => {
    const refused = await run('team-token.ts', ['add', 'Not A Remote'], testApp.databasePath);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/usage: npm run token:add/);
    // An expiry that is no number of days says so, rather than the usage alone.
    for (const expires of ['soon', '0d', '30']) {
      const badExpiry = await run('team-token.ts', ['add', 'team_x', '--expires', expires], testApp.databasePath);
      expect(badExpiry.code).toBe(2);
      expect(badExpiry.stderr).toBe(
        `--expires takes a whole number of days from 1 to 99999 followed by "d" (for example 90d), not "${expires}".\n`,
      );
    }
  });

  it('gives an account the operator role with user:add --role operator', async () => {
    const added = await run('user-add.ts', ['ops', '--role', 'operator'], testApp.databasePath, 'ops-password-123\n');
    expect(added.code).toBe(0);
    expect((await testApp.app.users.findByUsername('ops'))?.roles).toEqual(['operator']);
    await run('user-add.ts', ['ops', '--role', 'none'], testApp.databasePath, 'ops-password-123\n');
    expect((await testApp.app.users.findByUsername('ops'))?.roles).toEqual([]);
  });
});

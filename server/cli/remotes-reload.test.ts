/**
 * `npm run remotes:reload` reads REMOTES_CONFIG as the hosts do before asking them: an invalid file is refused with
 * the line a host would log and exit code 1, and no host is asked (each would only refuse it in its own log); a valid
 * one is asked for, the output saying what was checked and that the hosts' outcome is in their logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { runServerCommand } from '../../testing/server/run-server-command';
import { startSlowOrigin } from '../../testing/server/slow-origin';
import { storeReleaseInForce } from '../../testing/server/released-remote';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { startStaticServer } from '../../testing/system/static-server';
import { createTestApp, type TestApp } from '../../testing/server/test-app';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

jest.setTimeout(30_000);

/**
 * A host on a SQLite file with a REMOTES_CONFIG in its folder, and the command run with the same settings. `read`:
 * a file the host reads too (its own re-read then judges what the command judged).
 */
async function hostWithConfigFile(read?: string) {
  if (read) fs.writeFileSync(read, JSON.stringify({ remotes: [] }));
  const app = await createTestApp(read ? { env: { REMOTES_CONFIG: read } } : {});
  testApp = app;
  const configFile = read ?? path.join(app.dir.path, 'remotes.json');
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [] }));
  const reload = (env: NodeJS.ProcessEnv = {}) =>
    runServerCommand('remotes-reload.ts', [], {
      DATABASE_PATH: app.databasePath,
      DATABASE_URL: '',
      REMOTES_CONFIG: configFile,
      FRONTEND_DIR: path.join(app.dir.path, 'dist'),
      NODE_ENV: 'test',
      ...env,
    });
  return { app: app.app, configFile, reload };
}

it('refuses an invalid REMOTES_CONFIG with its problem and exit code 1, without asking the hosts', async () => {
  const { app, configFile, reload } = await hostWithConfigFile();
  const before = await app.releases.store.lastConfigReload();

  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entyr: 'https://x.test/m.json' }] }));
  const unknownKey = await reload();
  expect(unknownKey.code).toBe(1);
  expect(unknownKey.stderr.split('\n')).toEqual([
    `Remotes configuration not reloaded, the previous one stays in use: REMOTES_CONFIG ${configFile}, remotes[0]: ` +
      'unknown key(s) entyr; allowed: name, entry, components, formComponents, enabled, slots, forms, releaseOrigins, teamRollouts.',
    `Checked REMOTES_CONFIG ${configFile}, as NODE_ENV=test, with the built-in remotes of ${path.dirname(configFile)}/dist.`,
    'No host was asked to re-read it.',
    '',
  ]);
  expect(unknownKey.stdout).toBe('');

  fs.writeFileSync(configFile, '{ "remotes": [');
  const notJson = await reload();
  expect(notJson.code).toBe(1);
  expect(notJson.stderr).toContain(configFile);

  expect(await app.releases.store.lastConfigReload()).toBe(before);
});

it('asks every host to re-read a valid one, as before', async () => {
  const { app, reload } = await hostWithConfigFile();
  const before = await app.releases.store.lastConfigReload();
  const run = await reload();
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.split('\n')).toEqual([
    expect.stringMatching(
      /^Checked REMOTES_CONFIG .*remotes\.json, as NODE_ENV=test, with the built-in .* It passes\.$/,
    ),
    expect.stringMatching(/^Asked every host on .* to re-read REMOTES_CONFIG \(within about a second\)\.$/),
    expect.stringMatching(/^Whether each takes it is not known here: .* "Remotes configuration reloaded\." or why/),
    '',
  ]);
  expect(await app.releases.store.lastConfigReload()).toBeGreaterThan(before);
});

it('checks as production when NODE_ENV is not set (the hosts of npm start), saying how to check for development', async () => {
  const { app, configFile, reload } = await hostWithConfigFile();
  const before = await app.releases.store.lastConfigReload();
  const remotes = [{ name: 'team_billing', entry: 'http://billing.example.com/mf-manifest.json' }];
  fs.writeFileSync(configFile, JSON.stringify({ remotes }));

  const unset = await reload({ NODE_ENV: '' });
  expect(unset.code).toBe(1);
  expect(unset.stderr).toContain('uses plain http on "billing.example.com"');
  expect(unset.stderr).toContain('if yours do, run the command with NODE_ENV=development.');
  expect(await app.releases.store.lastConfigReload()).toBe(before);

  const development = await reload({ NODE_ENV: 'development' });
  expect([development.code, development.stderr]).toEqual([0, '']);
  expect(await app.releases.store.lastConfigReload()).toBeGreaterThan(before);
});

it("checks the file's slots of a remote with a release in force against that release's schemas, as the hosts do", async () => {
  const { app, configFile, reload } = await hostWithConfigFile();
  const before = await app.releases.store.lastConfigReload();
  const amountDue = { type: 'object', properties: { amountDue: { type: 'number' } }, required: ['amountDue'] };
  await storeReleaseInForce(app, {
    remote: 'team_billing',
    version: '0.2.0',
    entry: 'https://billing.example.com/0.2.0/mf-manifest.json',
    components: ['InvoiceBanner'],
    props: { InvoiceBanner: amountDue },
  });
  // The file says nothing of the remote's components: only the release in force knows them.
  const placing = (props: object) =>
    JSON.stringify({
      remotes: [
        {
          name: 'team_billing',
          entry: 'https://billing.example.com/0.2.0/mf-manifest.json',
          slots: { 'dashboard-before-cards': [{ component: 'InvoiceBanner', props }] },
        },
      ],
    });
  fs.writeFileSync(configFile, placing({ amountDue: '12.50' }));
  const refused = await reload();
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /^Remotes configuration not reloaded, the previous one stays in use: [\s\S]*\n {2}- InvoiceBanner at dashboard-before-cards\[0\] \(configuration, remote "team_billing"\): props\.amountDue must be number, got "12\.50"\n/,
  );
  expect(refused.stderr).toContain(', and the releases in force in the database (team_billing 0.2.0).\n');
  expect(await app.releases.store.lastConfigReload()).toBe(before);

  fs.writeFileSync(configFile, placing({ amountDue: 12.5 }));
  const taken = await reload();
  expect([taken.code, taken.stderr]).toEqual([0, '']);
  expect(await app.releases.store.lastConfigReload()).toBeGreaterThan(before);
});

describe('a remote declared by entry alone, read from its origin as a host reads it', () => {
  const amountDue = { type: 'object', properties: { amountDue: { type: 'number' } }, required: ['amountDue'] };
  let dist: FixtureDist;
  let origin: HttpFixtureServer | undefined;
  beforeEach(() => {
    dist = createFixtureDist();
  });
  afterEach(async () => {
    await origin?.close();
    origin = undefined;
    dist.remove();
  });

  /** team_billing's build, served from a second origin; the file declaring it by entry alone, placing a slot. */
  async function billingOrigin() {
    dist.addRemote({
      name: 'team_billing',
      components: ['InvoiceBanner'],
      formComponents: [],
      props: { InvoiceBanner: amountDue },
    });
    origin = await startStaticServer(dist.dir);
    const entry = `${origin.url}/remotes/team_billing/mf-manifest.json`;
    const placing = (props: object) =>
      JSON.stringify({
        remotes: [
          { name: 'team_billing', entry, slots: { 'dashboard-before-cards': [{ component: 'InvoiceBanner', props }] } },
        ],
      });
    return { entry, placing };
  }

  it("checks the file's slots against the descriptor its origin answers, refusing what every host refuses", async () => {
    const { app, configFile, reload } = await hostWithConfigFile(path.join(dist.dir, 'remotes.json'));
    const { placing } = await billingOrigin();
    const before = await app.releases.store.lastConfigReload();

    fs.writeFileSync(configFile, placing({ amountDue: '12.50' }));
    const refused = await reload();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Remotes configuration not reloaded, the previous one stays in use: [\s\S]*\n {2}- InvoiceBanner at dashboard-before-cards\[0\] \(configuration, remote "team_billing"\): props\.amountDue must be number, got "12\.50"\n/,
    );
    expect(refused.stderr).toContain(
      ', and the remotes declared by entry alone as their origins answered here (team_billing).\n',
    );
    expect(await app.releases.store.lastConfigReload()).toBe(before);
    // A host reading the same origin refuses it too.
    expect(await app.reloadRemotesConfig()).toBe(false);

    fs.writeFileSync(configFile, placing({ amountDue: 12.5 }));
    const taken = await reload();
    expect([taken.code, taken.stderr]).toEqual([0, '']);
    expect(taken.stdout).toContain('(team_billing). It passes.\n');
    expect(await app.releases.store.lastConfigReload()).toBeGreaterThan(before);
    expect(await app.reloadRemotesConfig()).toBe(true);
  });

  it('says which remote it could not reach and that its slots are not checked, without refusing the file', async () => {
    const { app, configFile, reload } = await hostWithConfigFile(path.join(dist.dir, 'remotes.json'));
    const { placing } = await billingOrigin();
    await origin?.close();
    origin = undefined;
    const before = await app.releases.store.lastConfigReload();
    // Props its schema refuses: unseen here, as by a host that cannot reach the origin either (it takes the file).
    fs.writeFileSync(configFile, placing({ amountDue: '12.50' }));
    const run = await reload();
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^Checked REMOTES_CONFIG .*, and no release in force in the database\. It passes\.$/),
      expect.stringMatching(
        /^Remote "team_billing" \(declared by entry alone\) could not be read here: .*\. Its slots are not checked here; a host that cannot read it either takes the file and leaves them out until it answers\.$/,
      ),
    ]);
    expect(await app.releases.store.lastConfigReload()).toBeGreaterThan(before);
  });

  /** Past the default timeout (3 s): read only with REMOTE_DESCRIPTOR_TIMEOUT_MS raised. */
  const SLOW_MS = 3_500;

  it('reads a slow origin with REMOTE_DESCRIPTOR_TIMEOUT_MS raised, and says it unreachable with it lowered', async () => {
    const { configFile, reload } = await hostWithConfigFile(path.join(dist.dir, 'remotes.json'));
    const { entry, placing } = await billingOrigin();
    // The same origin, answering each request SLOW_MS late.
    const target = origin!.url;
    const slow = await startSlowOrigin(target, SLOW_MS);
    try {
      const slowEntry = entry.replace(target, slow.url);
      // Props its schema refuses: seen only once the slow origin's descriptor is read.
      fs.writeFileSync(configFile, placing({ amountDue: '12.50' }).replace(entry, slowEntry));

      const raised = await reload({ REMOTE_DESCRIPTOR_TIMEOUT_MS: String(SLOW_MS * 3) });
      expect(raised.code).toBe(1);
      expect(raised.stderr).toContain('props.amountDue must be number, got "12.50"');
      expect(raised.stderr).toContain('as their origins answered here (team_billing).\n');

      const lowered = await reload({ REMOTE_DESCRIPTOR_TIMEOUT_MS: '300' });
      expect([lowered.code, lowered.stderr]).toEqual([0, '']);
      expect(lowered.stdout).toContain(
        `Remote "team_billing" (declared by entry alone) could not be read here: ${slow.url}/remotes/team_billing/` +
          'slots-remote.json did not answer within 300 ms. Its slots are not checked here;',
      );
    } finally {
      await slow.close();
    }
  });

  it('refuses a REMOTE_DESCRIPTOR_TIMEOUT_MS outside its bounds, naming them, without asking the hosts', async () => {
    const { app, reload } = await hostWithConfigFile();
    const before = await app.releases.store.lastConfigReload();
    for (const value of ['3s', '50', '60000']) {
      const run = await reload({ REMOTE_DESCRIPTOR_TIMEOUT_MS: value });
      expect([run.code, run.stdout, run.stderr]).toEqual([
        1,
        '',
        `remotes:reload failed: REMOTE_DESCRIPTOR_TIMEOUT_MS="${value}" is not valid: expected a whole number of ` +
          'milliseconds from 100 to 30000 (default 3000).\n',
      ]);
    }
    expect(await app.releases.store.lastConfigReload()).toBe(before);
  });
});

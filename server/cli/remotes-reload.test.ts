/**
 * `npm run remotes:reload` reads REMOTES_CONFIG as the hosts do before asking them: an invalid file is refused with
 * its problem and exit code 1, and no host is asked (each would only refuse it in its own log); a valid one is
 * asked for as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runServerCommand } from '../../testing/server/run-server-command';
import { createTestApp, type TestApp } from '../../testing/server/test-app';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

jest.setTimeout(30_000);

/** A host on a SQLite file with a REMOTES_CONFIG in its folder, and the command run with the same settings. */
async function hostWithConfigFile() {
  const app = await createTestApp();
  testApp = app;
  const configFile = path.join(app.dir.path, 'remotes.json');
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [] }));
  const reload = () =>
    runServerCommand('remotes-reload.ts', [], {
      DATABASE_PATH: app.databasePath,
      DATABASE_URL: '',
      REMOTES_CONFIG: configFile,
      FRONTEND_DIR: path.join(app.dir.path, 'dist'),
    });
  return { app: app.app, configFile, reload };
}

it('refuses an invalid REMOTES_CONFIG with its problem and exit code 1, without asking the hosts', async () => {
  const { app, configFile, reload } = await hostWithConfigFile();
  const before = await app.releases.lastConfigReload();

  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entyr: 'https://x.test/m.json' }] }));
  const unknownKey = await reload();
  expect(unknownKey.code).toBe(1);
  expect(unknownKey.stderr).toContain('The remotes configuration is invalid: ');
  expect(unknownKey.stderr).toContain(configFile);
  expect(unknownKey.stderr).toContain('entyr');
  expect(unknownKey.stderr).toContain('No host was asked to re-read it');
  expect(unknownKey.stdout).not.toContain('Asked every host');

  fs.writeFileSync(configFile, '{ "remotes": [');
  const notJson = await reload();
  expect(notJson.code).toBe(1);
  expect(notJson.stderr).toContain(configFile);

  expect(await app.releases.lastConfigReload()).toBe(before);
});

it('asks every host to re-read a valid one, as before', async () => {
  const { app, reload } = await hostWithConfigFile();
  const before = await app.releases.lastConfigReload();
  const run = await reload();
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Asked every host on .* to re-read REMOTES_CONFIG/);
  expect(await app.releases.lastConfigReload()).toBeGreaterThan(before);
});

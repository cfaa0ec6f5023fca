/**
 * A host starting on a database whose release in force gives a component to one remote while REMOTES_CONFIG gives
 * it to another: refused, with the line a reload logs for the same clash and the way out, on a real SQLite file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { storeReleaseInForce } from '../../testing/server/released-remote';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RemotesConfigError } from '../config/remotes-config-error';

let dir: TempDir;
let testApp: TestApp | undefined;
beforeEach(() => {
  dir = makeTempDir('slots-start-clash-');
});
afterEach(async () => {
  await testApp?.close({ keepData: true });
  testApp = undefined;
  dir.remove();
});

jest.setTimeout(30_000);

// Declared by entry alone: only its release in force, read from its origin when published, says what it provides.
const BILLING = { name: 'team_billing', entry: 'https://billing.example.com/0.2.0/mf-manifest.json' };
const COPY = { name: 'team_copy', entry: 'https://copy.example.com/mf-manifest.json', components: ['InvoiceBanner'] };

/** A database whose release in force of team_billing provides InvoiceBanner; the host that made it closed. */
async function databaseWithBillingRelease(configFile: string): Promise<void> {
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [BILLING] }));
  const first = await createTestApp({ dir, env: { REMOTES_CONFIG: configFile } });
  await storeReleaseInForce(first.app, {
    remote: 'team_billing',
    version: '0.2.0',
    entry: BILLING.entry,
    components: ['InvoiceBanner'],
  });
  await first.close({ keepData: true });
}

it('refuses to start when the file gives another remote a component the release in force provides', async () => {
  const configFile = path.join(dir.path, 'remotes.json');
  await databaseWithBillingRelease(configFile);

  fs.writeFileSync(configFile, JSON.stringify({ remotes: [BILLING, COPY] }));
  const started = createTestApp({ dir, env: { REMOTES_CONFIG: configFile } });
  await expect(started).rejects.toThrow(RemotesConfigError);
  await expect(started).rejects.toThrow(
    `Component "InvoiceBanner" is provided by both "team_copy" and "team_billing" (its release 0.2.0, in force) ` +
      `(REMOTES_CONFIG ${configFile}); a component name must belong to one remote. The server does not start with ` +
      'this REMOTES_CONFIG',
  );

  // The way out the message gives: the file without the other claim starts, served from the release.
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [BILLING] }));
  testApp = await createTestApp({ dir, env: { REMOTES_CONFIG: configFile } });
  expect(testApp.app.remotes.registry.remotes().map(({ name, components }) => [name, components])).toEqual([
    ['team_billing', ['InvoiceBanner']],
  ]);
});

it('starts when the file gives the component to no other remote than the released one', async () => {
  const configFile = path.join(dir.path, 'remotes.json');
  await databaseWithBillingRelease(configFile);
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [BILLING, { ...COPY, components: ['CopyBanner'] }] }));
  testApp = await createTestApp({ dir, env: { REMOTES_CONFIG: configFile } });
  expect(testApp.app.remotes.registry.remotes().map(({ name }) => name)).toEqual(['team_copy', 'team_billing']);
});

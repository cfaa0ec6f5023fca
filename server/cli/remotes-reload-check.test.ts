/**
 * What `npm run remotes:reload` finds in REMOTES_CONFIG before asking the hosts: what a host with the same settings
 * would refuse, with the very line it logs, and what was checked (the hosts may run with other settings).
 */
import path from 'node:path';
import pino from 'pino';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { storeReleaseInForce } from '../../testing/server/released-remote';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { checkRemotesConfigHere } from './remotes-reload-check';

let dist: FixtureDist;
let testApp: TestApp | undefined;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  dist.remove();
});

const NOT_RELOADED = 'Remotes configuration not reloaded, the previous one stays in use: ';
const PLAIN_HTTP = { remotes: [{ name: 'team_billing', entry: 'http://billing.example.com/mf-manifest.json' }] };

it('refuses what a host with the same settings refuses, with the very line that host logs', async () => {
  const file = dist.write('remotes.json', JSON.stringify({ remotes: [] }));
  const logged: string[] = [];
  const host = await createTestApp({
    env: { REMOTES_CONFIG: file },
    logger: pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
  });
  testApp = host;
  const env = { REMOTES_CONFIG: file, NODE_ENV: 'test', FRONTEND_DIR: path.join(host.dir.path, 'dist') };

  for (const content of [
    '{ "remotes": [',
    JSON.stringify({ remotes: [{ name: 'team_billing', entyr: 'https://billing.example.com/mf-manifest.json' }] }),
    JSON.stringify({ remotes: [{ name: 'team_billing', releaseOrigins: [] }] }),
  ]) {
    dist.write('remotes.json', content);
    logged.length = 0;
    expect(await host.app.reloadRemotesConfig()).toBe(false);
    const hostLine = (JSON.parse(logged[0]!) as { msg: string }).msg;
    expect(hostLine.startsWith(NOT_RELOADED)).toBe(true);
    expect(checkRemotesConfigHere(env).refusal).toBe(hostLine);
  }

  dist.write('remotes.json', JSON.stringify({ remotes: [] }));
  expect(checkRemotesConfigHere(env).refusal).toBeNull();
  expect(await host.app.reloadRemotesConfig()).toBe(true);
});

it('says what it checked: the file, the mode and the built-in remotes’ folder', () => {
  const file = dist.write('remotes.json', JSON.stringify({ remotes: [] }));
  expect(
    checkRemotesConfigHere({ REMOTES_CONFIG: file, NODE_ENV: 'production', FRONTEND_DIR: dist.dir }),
  ).toMatchObject({
    refusal: null,
    checked: `Checked REMOTES_CONFIG ${file}, as NODE_ENV=production, with the built-in remotes of ${dist.dir}.`,
  });
  expect(checkRemotesConfigHere({ NODE_ENV: 'development', FRONTEND_DIR: dist.dir }).checked).toBe(
    'REMOTES_CONFIG is not set here: checked the built-in remotes alone (a host given one reads its own), as ' +
      `NODE_ENV=development, with the built-in remotes of ${dist.dir}.`,
  );
});

it('reads a relative REMOTES_CONFIG and FRONTEND_DIR from its working folder, and says hosts read theirs', () => {
  dist.addRemote({ name: 'team_marketing', components: ['Callout'], formComponents: [] });
  // A built-in remote re-placed without an entry: valid only where that remote is built.
  dist.write('remotes.json', JSON.stringify({ remotes: [{ name: 'team_marketing', components: ['Callout'] }] }));
  const check = checkRemotesConfigHere(
    { REMOTES_CONFIG: 'remotes.json', NODE_ENV: 'production', FRONTEND_DIR: '.' },
    dist.dir,
  );
  expect(check).toMatchObject({
    refusal: null,
    checked:
      `Checked REMOTES_CONFIG remotes.json as ${path.join(dist.dir, 'remotes.json')} (a relative path: each host ` +
      `reads it from its own working folder), as NODE_ENV=production, with the built-in remotes of ${dist.dir}.`,
  });
  const elsewhere = path.join(dist.dir, 'elsewhere');
  const refused = checkRemotesConfigHere(
    { REMOTES_CONFIG: path.join(dist.dir, 'remotes.json'), NODE_ENV: 'production', FRONTEND_DIR: elsewhere },
    dist.dir,
  ).refusal;
  expect(refused).toContain(`it is not built into ${path.join(elsewhere, 'remotes')}, so it needs "entry"`);
});

it('checks as production when NODE_ENV is not set, saying how to check for hosts running in development', () => {
  const file = dist.write('remotes.json', JSON.stringify(PLAIN_HTTP));
  const unset = checkRemotesConfigHere({ REMOTES_CONFIG: file, NODE_ENV: ' ', FRONTEND_DIR: dist.dir });
  expect(unset.refusal?.split('\n')).toEqual([
    expect.stringMatching(
      new RegExp(
        `^${NOT_RELOADED}REMOTES_CONFIG .*"entry" "http://billing.example.com/mf-manifest.json" uses plain http`,
      ),
    ),
    'A host running in production refuses it; one running with NODE_ENV=development would take it: if yours do, ' +
      'run the command with NODE_ENV=development.',
  ]);
  expect(unset.checked).toContain(
    ', as NODE_ENV=production (not set here: the mode npm start and npm run serve give the hosts), with the',
  );
  expect(checkRemotesConfigHere({ REMOTES_CONFIG: file, NODE_ENV: 'development' }).refusal).toBeNull();
  // Set to production, it is refused without the hint: the operator said how the hosts run.
  expect(checkRemotesConfigHere({ REMOTES_CONFIG: file, NODE_ENV: 'production' }).refusal?.split('\n')).toHaveLength(1);
});

it("refuses a slot of a built-in remote whose props its component's schema refuses, as every host would", async () => {
  const tone = { type: 'object', properties: { tone: { enum: ['info', 'warning'] } }, additionalProperties: false };
  dist.addRemote({ name: 'team_marketing', components: ['Callout'], formComponents: [], props: { Callout: tone } });
  const placing = (props: object) =>
    JSON.stringify({
      remotes: [{ name: 'team_marketing', slots: { 'global-before-content': [{ component: 'Callout', props }] } }],
    });
  const file = dist.write('remotes.json', placing({ tone: 'info' }));
  const env = { REMOTES_CONFIG: file, NODE_ENV: 'production', FRONTEND_DIR: dist.dir };
  expect(checkRemotesConfigHere(env).refusal).toBeNull();
  testApp = await createTestApp({ distDir: dist.dir, env: { REMOTES_CONFIG: file } });

  dist.write('remotes.json', placing({ tone: 'loud' }));
  const { refusal } = checkRemotesConfigHere(env);
  expect(refusal?.startsWith(NOT_RELOADED)).toBe(true);
  expect(refusal).toMatch(
    /Callout at global-before-content\[0\] \(configuration, remote "team_marketing"\): props\.tone must be/,
  );
  // A host with this build refuses it too.
  expect(await testApp.app.reloadRemotesConfig()).toBe(false);
});

it('refuses two of the file’s slots with one id, and a form slot of a component that is no form component', async () => {
  dist.addRemote({ name: 'team_marketing', components: ['Callout'], formComponents: [], props: {} });
  const file = dist.write('remotes.json', JSON.stringify({ remotes: [{ name: 'team_marketing' }] }));
  const env = { REMOTES_CONFIG: file, NODE_ENV: 'production', FRONTEND_DIR: dist.dir };
  testApp = await createTestApp({ distDir: dist.dir, env: { REMOTES_CONFIG: file } });
  // The later in the file is at fault, named by its place in the file (first in the order: its priority is lower).
  const callouts = [
    { component: 'Callout', id: 'x', priority: 90 },
    { component: 'Callout', id: 'x', priority: 10 },
  ];
  dist.write(
    'remotes.json',
    JSON.stringify({ remotes: [{ name: 'team_marketing', slots: { 'global-before-content': callouts } }] }),
  );
  const duplicate = checkRemotesConfigHere(env).refusal;
  expect(duplicate?.startsWith(NOT_RELOADED)).toBe(true);
  expect(duplicate).toContain(
    'Callout at global-before-content[1] (configuration, remote "team_marketing"): two slots at ' +
      '"global-before-content" have the id "x"',
  );
  // A host with this build refuses it too.
  expect(await testApp.app.reloadRemotesConfig()).toBe(false);

  dist.write(
    'remotes.json',
    JSON.stringify({ remotes: [{ name: 'team_marketing', forms: { articles: [{ component: 'Callout' }] } }] }),
  );
  const notAFormComponent = checkRemotesConfigHere(env).refusal;
  expect(notAFormComponent?.startsWith(NOT_RELOADED)).toBe(true);
  expect(notAFormComponent).toMatch(/Callout at .*articles.* \(configuration, remote "team_marketing"\): .*form/);
});

it('refuses a component the file gives a remote while a release in force gives it to another, as every host does', async () => {
  // team_billing is declared by entry alone: only its release in force, read from its origin, says what it provides.
  const billing = { name: 'team_billing', entry: 'https://billing.example.com/0.2.0/mf-manifest.json' };
  const file = dist.write('remotes.json', JSON.stringify({ remotes: [billing] }));
  const logged: string[] = [];
  const host = await createTestApp({
    distDir: dist.dir,
    env: { REMOTES_CONFIG: file },
    logger: pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
  });
  testApp = host;
  const { store } = host.app.releases;
  await storeReleaseInForce(host.app, {
    remote: 'team_billing',
    version: '0.2.0',
    entry: billing.entry,
    components: ['InvoiceBanner'],
  });
  await host.app.releases.snapshot.refresh();
  const inForce = (await store.releases()).filter(({ remote }) => remote === 'team_billing');
  const env = { REMOTES_CONFIG: file, NODE_ENV: 'test', FRONTEND_DIR: dist.dir };

  // Two different entries, the clash seen only in what team_billing's origin gave: its release.
  const copy = { name: 'team_copy', entry: 'https://copy.example.com/mf-manifest.json', components: ['InvoiceBanner'] };
  dist.write('remotes.json', JSON.stringify({ remotes: [billing, copy] }));
  const { refusal } = checkRemotesConfigHere(env, process.cwd(), inForce);
  expect(refusal).toBe(
    `${NOT_RELOADED}Component "InvoiceBanner" is provided by both "team_copy" and "team_billing" (its release ` +
      `0.2.0, in force) (REMOTES_CONFIG ${file}); a component name must belong to one remote.`,
  );
  // The very line the host logs, keeping its configuration.
  expect(await host.app.reloadRemotesConfig()).toBe(false);
  expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([refusal]);
  expect(host.app.remotes.registry.remotes().map(({ name }) => name)).toEqual(['team_billing']);

  // Without the release (the command run before the database is read), the file alone shows no clash.
  expect(checkRemotesConfigHere(env).refusal).toBeNull();
  // A release of a remote the file no longer declares is not served: nothing clashes.
  dist.write('remotes.json', JSON.stringify({ remotes: [copy] }));
  expect(checkRemotesConfigHere(env, process.cwd(), inForce).refusal).toBeNull();
  expect(await host.app.reloadRemotesConfig()).toBe(true);
});

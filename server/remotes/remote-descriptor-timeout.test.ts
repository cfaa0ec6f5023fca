/**
 * REMOTE_DESCRIPTOR_TIMEOUT_MS on a host: the server started as `npm run serve` starts it reads a remote declared by
 * entry alone from an origin slower than the default timeout once the variable is raised, and leaves it out (logging
 * the timeout it waited) once it is lowered; a value outside its bounds stops the start, naming them. The command
 * reading the same variable: server/cli/remotes-reload.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { printedUrl, runServerEntry, type EntryRun } from '../../testing/server/server-entry-run';
import { startSlowOrigin } from '../../testing/server/slow-origin';
import { waitUntil } from '../../testing/server/wait-until';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { startStaticServer } from '../../testing/system/static-server';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from './http-descriptor-source';

jest.setTimeout(60_000);

const ENTRY = 'testing/server/start-server-entry.ts';
/** Past the default timeout: read only with the variable raised. */
const SLOW_MS = DEFAULT_DESCRIPTOR_TIMEOUT_MS + 500;

let dist: FixtureDist;
let origin: HttpFixtureServer;
let slow: HttpFixtureServer;
let started: EntryRun | undefined;

beforeAll(async () => {
  dist = createFixtureDist();
  dist.addRemote({ name: 'team_billing', components: ['InvoiceBanner'], formComponents: [], props: {} });
  origin = await startStaticServer(dist.dir);
  slow = await startSlowOrigin(origin.url, SLOW_MS);
  fs.writeFileSync(
    path.join(dist.dir, 'remotes.json'),
    JSON.stringify({ remotes: [{ name: 'team_billing', entry: `${slow.url}/remotes/team_billing/mf-manifest.json` }] }),
  );
});

afterEach(async () => {
  started?.kill('SIGTERM');
  await started?.exited;
  started = undefined;
});

afterAll(async () => {
  await slow.close();
  await origin.close();
  dist.remove();
});

function startHost(timeout: string): EntryRun {
  started = runServerEntry(ENTRY, {
    DATABASE_PATH: path.join(dist.dir, `app-${timeout}.db`),
    DEMO_PASSWORD: 'entry-demo-password',
    REMOTES_CONFIG: path.join(dist.dir, 'remotes.json'),
    REMOTE_DESCRIPTOR_TIMEOUT_MS: timeout,
  });
  return started;
}

it('reads a slow origin with REMOTE_DESCRIPTOR_TIMEOUT_MS raised', async () => {
  const host = startHost(String(SLOW_MS * 3));
  await printedUrl(host);
  await waitUntil(
    () => Promise.resolve(host.output().includes('Remote \\"team_billing\\" answered: 1 component(s).')),
    10_000,
    'team_billing answered',
  );
  expect(host.output()).not.toContain('did not answer within');
});

it('leaves it out, saying the timeout it waited, with REMOTE_DESCRIPTOR_TIMEOUT_MS lowered', async () => {
  const host = startHost('300');
  await printedUrl(host);
  expect(host.output()).toContain(
    `Remote \\"team_billing\\" is not available (${slow.url}/remotes/team_billing/slots-remote.json did not answer ` +
      'within 300 ms)',
  );
  expect(host.output()).not.toContain('Remote \\"team_billing\\" answered');
});

it('does not start with a value outside its bounds, naming them', async () => {
  const host = startHost('45000');
  expect(await host.exited).toBe(1);
  expect(host.output()).toContain(
    'REMOTE_DESCRIPTOR_TIMEOUT_MS="45000" is not valid: expected a whole number of milliseconds from 100 to 30000 ' +
      '(default 3000).',
  );
});

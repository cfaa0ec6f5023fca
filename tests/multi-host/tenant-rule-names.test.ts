/**
 * The rule-name watch of running hosts follows `tenant:add` and `tenant:remove` run beside them, on the same
 * database, without a restart: real server processes (one on a SQLite file; two sharing only PostgreSQL) place a slot
 * by REMOTES_CONFIG whose rule names the tenant "initech", and the real commands make and remove that tenant. Each
 * host warns at its start that no such tenant exists, says within the poll's delay that it exists once it is made,
 * and warns again once it is removed (the rule is kept: tenant:remove changes no rule).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { runServerCommand } from '../../testing/server/run-server-command';
import { waitUntil } from '../../testing/server/wait-until';
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

const LOCATION = 'dashboard-after-cards';
const CONFIG = {
  remotes: [
    {
      name: 'team_marketing',
      slots: {
        [LOCATION]: [
          { component: 'WelcomeCard', props: { title: 'For Initech' }, visibleWhen: { tenants: ['initech'] } },
        ],
      },
    },
  ],
};
const WHERE = `Slot "WelcomeCard" at ${LOCATION} (placed for team_marketing by REMOTES_CONFIG): "visibleWhen.tenants"`;
const UNKNOWN = `${WHERE} names the unknown tenant "initech"; tenants: acme, globex.`;
const KNOWN = `${WHERE} names no unknown tenant now ("initech" exists).`;
/** A tenant change reaches the hosts at their next poll (every second): counted from the command's end. */
const WITHIN_MS = 3000;

/** How many of the host's log lines start with `message`. */
function logged(host: AppServer, message: string): number {
  return host.process.logLines<{ msg?: string }>().filter((line) => line.msg?.startsWith(message)).length;
}

/** Waits until every host logged `message` `count` times, within WITHIN_MS. */
async function untilLogged(hosts: readonly AppServer[], message: string, count: number): Promise<void> {
  await waitUntil(
    () => Promise.resolve(hosts.every((host) => logged(host, message) >= count)),
    WITHIN_MS,
    `${count} time(s) on every host: ${message}`,
  );
  for (const host of hosts) expect(logged(host, message)).toBe(count);
}

/**
 * Makes "initech" with tenant:add, then removes it with tenant:remove, and expects every host to follow each. `env`:
 * the database the commands are run on, as the hosts' settings.
 */
async function addThenRemove(hosts: readonly AppServer[], env: NodeJS.ProcessEnv): Promise<void> {
  // At the start, after the demo is seeded: no tenant "initech".
  await waitUntil(() => Promise.resolve(hosts.every((host) => logged(host, UNKNOWN) === 1)), 10_000, UNKNOWN);

  const added = await runServerCommand('tenant-add.ts', ['initech', '--name', 'Initech'], env);
  expect([added.code, added.stderr]).toEqual([0, '']);
  await untilLogged(hosts, KNOWN, 1);
  expect(hosts.map((host) => logged(host, UNKNOWN))).toEqual(hosts.map(() => 1));

  const removed = await runServerCommand('tenant-remove.ts', ['initech', '--yes'], env);
  expect([removed.code, removed.stderr]).toEqual([0, '']);
  expect(removed.stdout).toContain(
    `(kept: the command does not change the file): WelcomeCard of team_marketing at ${LOCATION}.`,
  );
  await untilLogged(hosts, `${UNKNOWN} Its rule never holds for that name`, 2);
  expect(hosts.map((host) => logged(host, KNOWN))).toEqual(hosts.map(() => 1));
}

let configDir: TempDir;
let remotesConfig: string;

beforeAll(async () => {
  configDir = makeTempDir('slots-tenant-rules-');
  remotesConfig = path.join(configDir.path, 'remotes.json');
  await writeFile(remotesConfig, JSON.stringify(CONFIG));
});
afterAll(() => configDir.remove());

describe('a host on SQLite', () => {
  let host: AppServer | undefined;
  afterAll(() => host?.stop());

  it('follows tenant:add and tenant:remove run beside it', async () => {
    host = await startAppServer({ env: { REMOTES_CONFIG: remotesConfig } });
    await addThenRemove([host], {
      DATABASE_PATH: host.databasePath,
      DATABASE_URL: '',
      REMOTES_CONFIG: remotesConfig,
    });
  });
});

describeWithPostgres()('two hosts sharing only PostgreSQL', () => {
  let postgres: PostgresServer | undefined;
  const hosts: AppServer[] = [];
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    await postgres?.remove();
  });

  it('both follow tenant:add and tenant:remove run beside them', async () => {
    postgres = await PostgresServer.start();
    const databaseUrl = await postgres.createDatabase('tenant_rule_names');
    hosts.push(await startPostgresHost(databaseUrl, { env: { REMOTES_CONFIG: remotesConfig } }));
    hosts.push(await startPostgresHost(databaseUrl, { env: { REMOTES_CONFIG: remotesConfig } }));
    await addThenRemove(hosts, { DATABASE_URL: databaseUrl, DATABASE_PATH: '', REMOTES_CONFIG: remotesConfig });
  });
});

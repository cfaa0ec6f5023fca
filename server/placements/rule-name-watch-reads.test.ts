/**
 * What the rule-name watch of a running host reads while the tenants and flags stay as they are, on both engines:
 * its change marker each poll and no list of tenants or flags, whatever else is written (records, accounts), and the
 * lists again at the next poll once a tenant or flag changed: by another host, by `tenant:add` run beside it, or by a
 * host of an earlier release (its plain SQL, which knows nothing of the marker).
 */
import { sql } from 'kysely';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { runServerCommand } from '../../testing/server/run-server-command';
import {
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { StoredRecordSource } from '../resources/stored-record-source';

jest.setTimeout(60_000);

const POLL_MS = 20;

/** The host's reads of the tenants and flags lists, and of the change marker, counted from now on. */
function countReads({ app }: TestApp) {
  const lists = [jest.spyOn(app.tenants, 'list'), jest.spyOn(app.flags, 'names')];
  const marker = jest.spyOn(app.placements, 'readRuleNamesMarker');
  return {
    lists: () => lists.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
    markers: () => marker.mock.calls.length,
  };
}

/** Waits until the host read its marker `polls` more times: that many polls, at least, are over. */
async function pollsOver(reads: ReturnType<typeof countReads>, polls: number): Promise<void> {
  const from = reads.markers();
  await waitUntil(() => Promise.resolve(reads.markers() >= from + polls + 1), 5000, `${polls} polls`);
}

/** The environment `tenant:add` finds the hosts' database in. */
type CommandEnv = Record<string, string>;

async function quietPollsReadNoList([host, other]: readonly [TestApp, TestApp], env: CommandEnv): Promise<void> {
  await other.app.tenants.save({ id: 'acme', name: 'Acme' });
  const reads = countReads(host);
  host.app.checkRuleNames();
  // The start's check reads both lists once.
  await waitUntil(() => Promise.resolve(reads.lists() === 2), 5000, 'the first check');
  await pollsOver(reads, 5);
  expect(reads.lists()).toBe(2);

  // Writes of anything but tenants and flags, on either host: the lists are not read again.
  await new StoredRecordSource(other.app.storage).insert('acme', 'notes', { title: 'Elsewhere' });
  await new StoredRecordSource(host.app.storage).insert('acme', 'notes', { title: 'Here' });
  await other.app.users.upsert('ada', 'hash');
  await pollsOver(reads, 5);
  expect(reads.lists()).toBe(2);

  // Another host's tenant, then its flag: each is read at the next poll, and nothing more after it.
  await other.app.tenants.save({ id: 'initech', name: 'Initech' });
  await waitUntil(() => Promise.resolve(reads.lists() === 4), 5000, 'the lists read again');
  await pollsOver(reads, 5);
  expect(reads.lists()).toBe(4);
  await other.app.flags.set('new-billing', true);
  await waitUntil(() => Promise.resolve(reads.lists() === 6), 5000, 'the lists read again');
  await pollsOver(reads, 5);
  expect(reads.lists()).toBe(6);

  // A host of an earlier release writes a tenant by its own SQL; tenant:add runs beside the hosts.
  await sql`INSERT INTO tenants (id, name) VALUES ('umbrella', 'Umbrella')`.execute(other.app.storage.db);
  await waitUntil(() => Promise.resolve(reads.lists() === 8), 5000, "the lists read after an old host's write");
  const added = await runServerCommand('tenant-add.ts', ['globex'], env);
  expect([added.code, added.stderr]).toEqual([0, '']);
  await waitUntil(() => Promise.resolve(reads.lists() === 10), 5000, 'the lists read after tenant:add');
  await pollsOver(reads, 5);
  expect(reads.lists()).toBe(10);
}

function options(extra: TestAppOptions = {}): TestAppOptions {
  return { releasePollMs: POLL_MS, ...extra };
}

afterEach(() => jest.restoreAllMocks());

describe('the rule-name watch of two hosts of one SQLite file', () => {
  it('reads no list at a poll after other writes, and reads them once a host, an old host or a command changed one', async () => {
    const hosts = await createTwoHosts(createTestApp, options());
    try {
      await quietPollsReadNoList(hosts, { DATABASE_URL: '', DATABASE_PATH: hosts[0].databasePath });
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describeWithPostgres()('the rule-name watch of two hosts of one PostgreSQL', () => {
  const databases = usePostgresDatabases('rule_name_reads', { poolSize: 2, statementTimeoutMs: 5000 });

  it('reads no list at a poll after other writes, and reads them once a host, an old host or a command changed one', async () => {
    const storage = await databases.create();
    const hosts = await createTwoHosts(createTestApp, options({ storage }));
    try {
      await quietPollsReadNoList(hosts, { DATABASE_URL: storage.url });
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

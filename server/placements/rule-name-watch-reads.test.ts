/**
 * What the rule-name watch of a running host reads while nothing changes, on both engines: its change marker each
 * poll and no list of tenants or flags, which it reads again once another host adds a tenant or sets a flag (on
 * PostgreSQL, a host no request reaches: the marker is read afresh, not the stamp of an earlier read).
 */
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import {
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';

jest.setTimeout(30_000);

const POLL_MS = 20;

/** The host's reads of the tenants and flags lists, and of the change marker, counted from now on. */
function countReads({ app }: TestApp) {
  const lists = [jest.spyOn(app.tenants, 'list'), jest.spyOn(app.flags, 'names')];
  const marker = jest.spyOn(app.storage, 'changeStamp');
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

async function quietPollsReadNoList([host, other]: readonly [TestApp, TestApp]): Promise<void> {
  const reads = countReads(host);
  host.app.checkRuleNames();
  // The start's check reads both lists once.
  await waitUntil(() => Promise.resolve(reads.lists() === 2), 5000, 'the first check');
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
}

function options(extra: TestAppOptions = {}): TestAppOptions {
  return { releasePollMs: POLL_MS, ...extra };
}

afterEach(() => jest.restoreAllMocks());

describe('the rule-name watch of two hosts of one SQLite file', () => {
  it('reads no list of tenants or flags at a quiet poll, and reads them once another host changed them', async () => {
    const hosts = await createTwoHosts(createTestApp, options());
    try {
      await quietPollsReadNoList(hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describeWithPostgres()('the rule-name watch of two hosts of one PostgreSQL', () => {
  const databases = usePostgresDatabases('rule_name_reads', { poolSize: 2, statementTimeoutMs: 5000 });

  it('reads no list of tenants or flags at a quiet poll, and reads them once another host changed them', async () => {
    const hosts = await createTwoHosts(createTestApp, options({ storage: await databases.create() }));
    try {
      await quietPollsReadNoList(hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

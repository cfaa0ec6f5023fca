/**
 * A create sent again with its Idempotency-Key makes one record, on both engines: SQLite (a file in a temporary
 * folder) and a real PostgreSQL (a fresh database per case), from one host and from two at the same moment.
 */
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import {
  RECORD_CREATION_KEY_HEADER,
  RECORD_CREATION_REPLAYED_HEADER,
  type ErrorBody,
  type RecordListPayload,
  type RecordPayload,
} from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import {
  addUser,
  closeTwoHosts,
  createDemoApp,
  createTwoHosts,
  signedInAgent,
  type DemoTestApp,
} from '../../testing/server/test-app';
import { RECORD_CREATION_KEY_MS, RECORD_CREATION_MESSAGES } from './record-creations';

const ARTICLES = '/api/resources/articles/records';
const ARTICLE = { title: 'Airship timetable', label: 'Travel', group: 'news', body: 'Weekly.' };

describe('creates made once by their Idempotency-Key on SQLite', () => {
  creationCases(
    () => createDemoApp(),
    () => createTwoHosts(createDemoApp),
  );

  it('lets a key go after a day: the same key then creates again', async () => {
    const host = await createDemoApp();
    try {
      const agent = await signedInAgent(host.app);
      const first = await agent.post(ARTICLES).set(RECORD_CREATION_KEY_HEADER, 'day-old-key').send(ARTICLE);
      const file = new BetterSqlite3(host.databasePath);
      try {
        file.prepare('UPDATE record_creations SET created_at = created_at - ?').run(RECORD_CREATION_KEY_MS + 1000);
      } finally {
        file.close();
      }
      const again = await agent.post(ARTICLES).set(RECORD_CREATION_KEY_HEADER, 'day-old-key').send(ARTICLE);
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers[RECORD_CREATION_REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
      expect((again.body as RecordPayload).record.id).not.toBe((first.body as RecordPayload).record.id);
      const file2 = new BetterSqlite3(host.databasePath, { readonly: true });
      try {
        // The day-old key was let go as the new one was written: the table holds about a day of keys.
        expect(file2.prepare('SELECT COUNT(*) FROM record_creations').pluck().get()).toBe(1);
      } finally {
        file2.close();
      }
    } finally {
      await host.close();
    }
  });
});

describeWithPostgres()('creates made once by their Idempotency-Key on PostgreSQL', () => {
  const postgres = usePostgresDatabases('record_creations', { poolSize: 4, statementTimeoutMs: 5000 });
  creationCases(
    async () => createDemoApp({ storage: await postgres.create() }),
    async () => createTwoHosts(createDemoApp, { storage: await postgres.create() }),
  );
});

function creationCases(open: () => Promise<DemoTestApp>, openTwo: () => Promise<[DemoTestApp, DemoTestApp]>): void {
  const demo = useSignedInDemo(open);
  const total = async () => (await demo.list('')).page.total.count;
  const create = (key: string, body: object = ARTICLE, agent: request.Agent = demo.agent) =>
    agent.post(ARTICLES).set(RECORD_CREATION_KEY_HEADER, key).send(body);

  it('answers a create sent again with its key with the record the first made, and makes no other', async () => {
    const before = await total();
    const first = await create('7f7c3a52-5d0e-4c55-9a43-0d8c0c6b8f01');
    // The same values in another order: the same create.
    const reordered = { body: 'Weekly.', group: 'news', label: 'Travel', title: 'Airship timetable' };
    const again = await create('7f7c3a52-5d0e-4c55-9a43-0d8c0c6b8f01', reordered);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.headers[RECORD_CREATION_REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    expect(again.headers[RECORD_CREATION_REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect((again.body as RecordPayload).record).toEqual((first.body as RecordPayload).record);
    expect(await total()).toBe(before + 1);
    // Without a key, or with another, a create is a new record as always.
    expect((await demo.agent.post(ARTICLES).send(ARTICLE)).status).toBe(201);
    expect((await create('another-key')).status).toBe(201);
    expect(await total()).toBe(before + 3);
  });

  it('answers the record as it is now, and a record deleted since as deleted, never making it again', async () => {
    const first = (await create('edited-then-deleted')).body as RecordPayload;
    const url = `${ARTICLES}/${first.record.id}`;
    await demo.agent.put(url).send({ title: 'Airship timetable, winter' }).expect(200);
    const edited = await create('edited-then-deleted');
    expect((edited.body as RecordPayload).record.title).toBe('Airship timetable, winter');
    await demo.agent.delete(url).expect(200);
    const before = await total();
    const deleted = await create('edited-then-deleted');
    expect(deleted.status).toBe(404);
    expect((deleted.body as ErrorBody).error.deletedRecord).toMatchObject({
      resource: 'articles',
      id: first.record.id,
    });
    expect(await total()).toBe(before);
  });

  it('refuses the key sent again with other values, and a key that is no key, writing nothing', async () => {
    const first = (await create('one-key')).body as RecordPayload;
    const before = await total();
    const other = await create('one-key', { ...ARTICLE, title: 'Another article' });
    expect(other.status).toBe(409);
    expect((other.body as ErrorBody).error).toMatchObject({
      code: 'conflict',
      message: RECORD_CREATION_MESSAGES.keyReused(first.record.id),
    });
    for (const key of ['x'.repeat(201), 'with space', 'naïve', '']) {
      const refused = await create(key);
      expect([key, refused.status, (refused.body as ErrorBody).error.message]).toEqual([
        key,
        400,
        RECORD_CREATION_MESSAGES.invalidKey,
      ]);
    }
    expect(await total()).toBe(before);
    // A create refused as invalid writes no key either: corrected, the same key creates.
    const invalid = await create('fix-then-send', { ...ARTICLE, title: '' });
    expect(invalid.status).toBe(400);
    expect((await create('fix-then-send')).status).toBe(201);
    expect(await total()).toBe(before + 1);
  });

  it("keeps one account's keys to itself: another account's same key creates its own record", async () => {
    await addUser(demo.host.app, 'cleo', 'correct horse battery', ['acme']);
    const cleo = await signedInAgent(demo.host.app, 'cleo', 'correct horse battery');
    const mine = (await create('shared-looking-key')).body as RecordPayload;
    const theirs = await create('shared-looking-key', ARTICLE, cleo);
    expect(theirs.status).toBe(201);
    expect(theirs.headers[RECORD_CREATION_REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    expect((theirs.body as RecordPayload).record.id).not.toBe(mine.record.id);
  });

  it('makes one record of the same create sent at the same moment to two hosts', async () => {
    const hosts = await openTwo();
    try {
      const agents = await Promise.all(hosts.map((host) => signedInAgent(host.app)));
      const reader = agents[0]!;
      const count = async () =>
        ((await reader.get(`${ARTICLES}?limit=1`).expect(200)).body as RecordListPayload).page.total.count;
      const before = await count();
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) => create('same-moment', ARTICLE, agents[index % 2]!)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
      const ids = new Set(answers.map((answer) => (answer.body as RecordPayload).record.id));
      expect(ids.size).toBe(1);
      const replayed = answers.filter((answer) => answer.headers[RECORD_CREATION_REPLAYED_HEADER.toLowerCase()]);
      expect(replayed).toHaveLength(5);
      expect(await count()).toBe(before + 1);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
}

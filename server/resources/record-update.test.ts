/**
 * Reading and changing one record through the API, the same on both engines: SQLite (a file in a temporary folder)
 * and a real PostgreSQL (a fresh database per case). Two apps on one database stand for two hosts.
 */
import type request from 'supertest';
import type { ErrorBody, RecordListPayload, RecordPayload, ResourceRecord } from '../../shared';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import type { StorageSettings } from '../storage/open-storage';
import { FIELD_MESSAGES } from './validate-record-update';

interface EngineUnderTest {
  name: string;
  describeFor: (name: string, suite: () => void) => void;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** Two demo apps on one new database: two hosts. */
  twoHosts(): Promise<[DemoTestApp, DemoTestApp]>;
}

let postgres: PostgresServer | undefined;
let databases = 0;

const ENGINES: EngineUnderTest[] = [
  {
    name: 'SQLite',
    describeFor: describe,
    setUp: () => Promise.resolve(),
    tearDown: () => Promise.resolve(),
    twoHosts: async () => {
      const first = await createDemoApp();
      return [first, await createDemoApp({ dir: first.dir })];
    },
  },
  {
    name: 'PostgreSQL',
    describeFor: describeWithPostgres(),
    setUp: async () => {
      postgres = await PostgresServer.start();
    },
    tearDown: async () => {
      await postgres?.remove();
    },
    twoHosts: async () => {
      const url = await (postgres as PostgresServer).createDatabase(`records_${++databases}`);
      const storage: StorageSettings = { kind: 'postgres', url, poolSize: 4, statementTimeoutMs: 5000 };
      const first = await createDemoApp({ storage });
      return [first, await createDemoApp({ storage })];
    },
  },
];

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`records through the API on ${engineUnderTest.name}`, () => {
    let hosts: [DemoTestApp, DemoTestApp];
    let agent: request.Agent;
    let article: ResourceRecord;

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);

    beforeEach(async () => {
      hosts = await engineUnderTest.twoHosts();
      agent = await signedInAgent(hosts[0].app);
      article = ((await agent.get('/api/resources/articles/records')).body as RecordListPayload).records[0]!;
    });

    afterEach(async () => {
      // The second host shares the first's folder (SQLite): it closes first, and leaves the folder to the first.
      await hosts[1].close({ keepData: true });
      await hosts[0].close();
    });

    const url = (id: number | string) => `/api/resources/articles/records/${id}`;

    it('refuses U+0000 in a text field with a message on that field, and keeps the record', async () => {
      const response = await agent.put(url(article.id)).send({ title: 'Nul\u0000here', body: '\u0000' });
      expect(response.status).toBe(400);
      expect((response.body as ErrorBody).error.fields).toEqual({
        title: FIELD_MESSAGES.nulCharacter,
        body: FIELD_MESSAGES.nulCharacter,
      });
      expect(((await agent.get(url(article.id))).body as RecordPayload).record).toEqual(article);
      expect((await agent.get('/api/resources/articles/records?sort=title&q=nul')).status).toBe(200);
    });

    it('answers ids and cursors beyond a 32-bit id as missing or invalid, never as a failure', async () => {
      for (const id of ['3000000000', '2147483648', '99999999999999999999']) {
        expect((await agent.get(url(id))).status).toBe(404);
        expect((await agent.put(url(id)).send({ title: 'x' })).status).toBe(404);
      }
      const cursor = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');
      for (const after of [
        cursor({ s: 'id', q: '', i: 3_000_000_000 }),
        cursor({ s: 'title', q: '', k: 'a', i: 2 ** 31 }),
        cursor({ s: 'title', q: '', k: 'a\u0000', i: 1 }),
      ]) {
        const sort = after === cursor({ s: 'id', q: '', i: 3_000_000_000 }) ? 'id' : 'title';
        const response = await agent.get(`/api/resources/articles/records?sort=${sort}&after=${after}`);
        expect(response.status).toBe(400);
        expect((response.body as ErrorBody).error.code).toBe('invalid_request');
      }
      expect((await agent.get('/api/resources/articles/records?sort=title&q=a%00')).status).toBe(400);
      const largest = await agent.get(
        `/api/resources/articles/records?after=${cursor({ s: 'id', q: '', i: 2 ** 31 - 1 })}`,
      );
      expect(largest.status).toBe(200);
      expect((largest.body as RecordListPayload).records).toEqual([]);
    });
  });
}

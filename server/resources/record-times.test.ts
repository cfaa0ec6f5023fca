/**
 * A record's times (RecordTimes) beside it in the records API, through real HTTP on both engines (a SQLite file, a
 * real PostgreSQL): set when created, moved by a save that changes something and by a restore, and not by a save
 * that changes nothing; the same in a record's answer as in each list of it.
 */
import type request from 'supertest';
import {
  RECORD_CREATION_KEY_HEADER,
  type RecordListPayload,
  type RecordPayload,
  type RecordTimes,
  type ResourceRecord,
} from '../../shared';
import { ENGINES } from '../../testing/server/engines-under-test';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';

const ARTICLES = '/api/resources/articles/records';

/** Waits until the clock is past `time`, so that a change made next is seen as later. */
async function after(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 2));
}

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`record times through the API on ${engineUnderTest.name}`, () => {
    let demo: DemoTestApp;
    let agent: request.Agent;

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);
    beforeEach(async () => {
      demo = await createDemoApp({ storage: await engineUnderTest.freshDatabase() });
      agent = await signedInAgent(demo.app);
    });
    afterEach(() => demo.close());

    const read = async (id: number): Promise<RecordPayload> =>
      (await agent.get(`${ARTICLES}/${id}`).expect(200)).body as RecordPayload;
    const list = async (query: string): Promise<RecordListPayload> =>
      (await agent.get(`${ARTICLES}?${query}`).expect(200)).body as RecordListPayload;
    const create = async (values: Record<string, string>): Promise<RecordPayload> =>
      (await agent.post(ARTICLES).send(values).expect(201)).body as RecordPayload;

    it('answers when a record was created, the same on reading it, and keeps the times out of its fields', async () => {
      const before = Date.now();
      const created = await create({ title: 'Timetable of airships', label: 'Timetable' });
      const made = Date.now();
      expect(created.times).toEqual({ createdAt: expect.any(Number) as number, updatedAt: created.times?.createdAt });
      expect(created.times!.createdAt).toBeGreaterThanOrEqual(before);
      expect(created.times!.createdAt).toBeLessThanOrEqual(made);
      expect(Object.keys(created.record).sort()).toEqual(['id', 'label', 'title']);
      const again = await read(created.record.id);
      expect([again.record, again.times]).toEqual([created.record, created.times]);
    });

    it('moves updatedAt on a save that changes a field, not on one that changes nothing', async () => {
      const created = await create({ title: 'Zeppelin review', label: 'Review', body: 'Airships.' });
      const { id } = created.record;
      const url = `${ARTICLES}/${id}`;
      await after(created.times!.updatedAt);
      const unchanged = (await agent.put(url).send({ title: 'Zeppelin review', body: 'Airships.' }).expect(200))
        .body as RecordPayload;
      expect(unchanged.times).toEqual(created.times);
      // Nothing the record shows changes: the save of an emptied group (no group shown) either.
      const noGroup = (await agent.put(url).send({ group: null }).expect(200)).body as RecordPayload;
      expect([noGroup.record, noGroup.times]).toEqual([created.record, created.times]);
      expect((await read(id)).times).toEqual(created.times);

      const saved = (await agent.put(url).send({ body: 'Airships, revised.' }).expect(200)).body as RecordPayload;
      expect(saved.times!.createdAt).toBe(created.times!.createdAt);
      expect(saved.times!.updatedAt).toBeGreaterThan(created.times!.updatedAt);
      expect((await read(id)).times).toEqual(saved.times);
    });

    it("lists each record's times by its id, as its own answer says them, however the list is walked", async () => {
      const first = await create({ title: 'Quarterly zeppelin review', label: 'Zeppelin' });
      await after(first.times!.updatedAt);
      const second = await create({ title: 'Zeppelin timetable', label: 'Zeppelin' });
      const expectTimesOf = async (payload: RecordListPayload) => {
        const times = payload.times ?? {};
        expect(Object.keys(times).sort()).toEqual(payload.records.map((record) => String(record.id)).sort());
        for (const record of payload.records) expect(times[record.id]).toEqual((await read(record.id)).times);
      };
      const all = await list('limit=100');
      expect(all.records.length).toBeGreaterThan(2);
      await expectTimesOf(all);
      // By the word index (a search), by a sorted column, and a page found by a cursor.
      const found = await list('search=zeppelin');
      expect(found.records.map((record: ResourceRecord) => record.id).sort()).toEqual(
        [first.record.id, second.record.id].sort(),
      );
      expect(found.times).toEqual({ [first.record.id]: first.times, [second.record.id]: second.times });
      await expectTimesOf(await list('search=zeppelin&sort=id'));
      const byTitle = await list('sort=title&limit=2');
      await expectTimesOf(byTitle);
      await expectTimesOf(await list(`sort=title&limit=2&after=${encodeURIComponent(byTitle.page.next!)}`));
      expect((await list('search=nothing-like-this')).times).toEqual({});
    });

    it('answers a restored record with the time it was made and the restore as its last change', async () => {
      const created = await create({ title: 'Gone for a moment', label: 'Gone' });
      const { id } = created.record;
      await after(created.times!.updatedAt);
      await agent.delete(`${ARTICLES}/${id}`).expect(200);
      const deletedBy = Date.now();
      const restored = (await agent.post(`${ARTICLES}/${id}/restore`).expect(200)).body as RecordPayload;
      expect(restored.times!.createdAt).toBe(created.times!.createdAt);
      expect(restored.times!.updatedAt).toBeGreaterThanOrEqual(deletedBy);
      expect((await read(id)).times).toEqual(restored.times);
    });

    it('answers a create sent again with its key with the times of the record it made', async () => {
      const values = { title: 'Made once', label: 'Once' };
      const first = (await agent.post(ARTICLES).set(RECORD_CREATION_KEY_HEADER, 'times-key').send(values).expect(201))
        .body as RecordPayload;
      await after(first.times!.updatedAt);
      const again = await agent.post(ARTICLES).set(RECORD_CREATION_KEY_HEADER, 'times-key').send(values).expect(201);
      expect((again.body as RecordPayload).times).toEqual<RecordTimes>(first.times!);
    });
  });
}

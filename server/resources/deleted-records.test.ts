/**
 * Recently deleted through the API, the same on both engines: the list of a resource's records that a restore can
 * still bring back (`GET .../records/deleted`), and what a read or a save of such a record answers (a 404 that says
 * it was deleted, until when it can be restored, and where).
 */
import request from 'supertest';
import {
  DELETED_RECORDS_LIMIT,
  RECORD_RESTORE_WINDOW_MS,
  type DeletedRecordsPayload,
  type ErrorBody,
  type RecordDeletedPayload,
  type RecordPayload,
  type ResourceRecord,
} from '../../shared';
import { withNotes } from '../../testing/server/notes-resource';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo, type SignedInDemo } from '../../testing/server/signed-in-demo';
import { addUser, createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import { DELETED_RECORDS_MESSAGES } from './parse-deleted-records-query';
import { RECORD_DELETE_MESSAGES } from './record-delete-guard';
import { RESOURCE_MESSAGES } from './resources-router';

const DELETED = '/api/resources/articles/records/deleted';

describe('recently deleted records on SQLite', () => {
  const demo = deletedCases(() => createDemoApp(withNotes));

  it('reads the newest deletions of the tenant and resource through an index range, never sorting the table', async () => {
    const db = demo.host.app.database.db;
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = jest.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      if (sql.includes('deleted_records')) {
        const count = (sql.match(/\?/g) ?? []).length;
        const plan = prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(
          ...Array<number>(count).fill(1),
        );
        plans.push(plan.map((row) => row.detail).join(' | '));
      }
      return prepare(sql);
    }) as typeof db.prepare);
    try {
      await demo.host.app.records.listDeleted('acme', 'articles', { limit: 3 });
      // A later page too: a range between the window's start and the last deletion shown.
      await demo.host.app.records.listDeleted('acme', 'articles', {
        limit: 3,
        before: { deletedAt: Date.now(), id: 9 },
      });
    } finally {
      spy.mockRestore();
    }
    expect(plans).toEqual([
      expect.stringMatching(
        /^SEARCH deleted_records USING INDEX deleted_records_tenant_resource \(tenant_id=\? AND resource=\? AND deleted_at>\?\)$/,
      ),
      expect.stringMatching(
        /^SEARCH deleted_records USING INDEX deleted_records_tenant_resource \(tenant_id=\? AND resource=\? AND deleted_at>\? AND deleted_at<\?\)$/,
      ),
    ]);
  });
});

describeWithPostgres()('recently deleted records on PostgreSQL', () => {
  const postgres = usePostgresDatabases('deleted_records', { poolSize: 4, statementTimeoutMs: 5000 });
  deletedCases(async () => createDemoApp({ ...withNotes, storage: await postgres.create() }));
});

function deletedCases(open: () => Promise<DemoTestApp>): SignedInDemo {
  const demo = useSignedInDemo(open);

  /** `count` new articles of the demo's tenant, made through the records source (quicker than the API). */
  const newArticles = async (count: number, tenant = 'acme'): Promise<ResourceRecord[]> => {
    const made: ResourceRecord[] = [];
    for (let index = 0; index < count; index++) {
      made.push(await demo.host.app.records.insert(tenant, 'articles', { title: `Gone ${index}`, label: 'G' }));
    }
    return made;
  };

  const deletedList = async (query = ''): Promise<DeletedRecordsPayload> => {
    const response = await demo.agent.get(`${DELETED}${query}`);
    expect([query, response.status]).toEqual([query, 200]);
    return response.body as DeletedRecordsPayload;
  };

  it('lists the articles deleted within the day, newest deletion first, with when and until when', async () => {
    const now = Date.now();
    const [early, late, middle, old] = await newArticles(4);
    const records = demo.host.app.records;
    // Deleted in an order that is not the order of their ids.
    await records.delete('acme', 'articles', early!.id, { now: now - 30_000 });
    await records.delete('acme', 'articles', late!.id, { now: now - 10_000 });
    await records.delete('acme', 'articles', middle!.id, { now: now - 20_000 });
    const byApi = (await demo.agent.delete(`/api/resources/articles/records/${old!.id}`).expect(200))
      .body as RecordDeletedPayload;

    const { deleted, limit, more } = await deletedList();
    expect([limit, more]).toEqual([DELETED_RECORDS_LIMIT.default, false]);
    expect(deleted.map((entry) => entry.record.id)).toEqual([old!.id, late!.id, middle!.id, early!.id]);
    expect(deleted[0]).toEqual({
      record: byApi.deleted,
      deletedAt: byApi.restorableUntil - RECORD_RESTORE_WINDOW_MS,
      restorableUntil: byApi.restorableUntil,
    });
    expect(deleted[1]).toEqual({
      record: late,
      deletedAt: now - 10_000,
      restorableUntil: now - 10_000 + RECORD_RESTORE_WINDOW_MS,
    });

    // A restored one leaves the list.
    await demo.agent.post(`/api/resources/articles/records/${late!.id}/restore`).expect(200);
    expect((await deletedList()).deleted.map((entry) => entry.record.id)).toEqual([old!.id, middle!.id, early!.id]);
  });

  it("leaves out deletions older than the day, other tenants' and other resources' deleted records", async () => {
    const [recent, tooOld] = await newArticles(2);
    const [globexArticle] = await newArticles(1, 'globex');
    const author = (
      (await demo.agent.post('/api/resources/authors/records').send({ title: 'Short stay', label: 'x' }).expect(201))
        .body as RecordPayload
    ).record;
    const records = demo.host.app.records;
    await records.delete('acme', 'articles', recent!.id);
    await records.delete('globex', 'articles', globexArticle!.id);
    await demo.agent.delete(`/api/resources/authors/records/${author.id}`).expect(200);
    // Deleted last, so that no later delete lets it go: still stored, past the window.
    await records.delete('acme', 'articles', tooOld!.id, { now: Date.now() - RECORD_RESTORE_WINDOW_MS - 60_000 });

    expect((await deletedList()).deleted.map((entry) => entry.record.id)).toEqual([recent!.id]);
    const authors = (await demo.agent.get('/api/resources/authors/records/deleted').expect(200))
      .body as DeletedRecordsPayload;
    expect(authors.deleted.map((entry) => entry.record)).toEqual([author]);
  });

  it('lists at most the limit asked for, 100 by default, saying that more were left out', async () => {
    const made = await newArticles(DELETED_RECORDS_LIMIT.max + 1);
    const now = Date.now();
    // Two by two at the same moment (a bulk delete's): the later id first among them.
    const deletedAt = (index: number) => now - 1000 * Math.floor((made.length - index) / 2);
    for (const [index, record] of made.entries()) {
      await demo.host.app.records.delete('acme', 'articles', record.id, { now: deletedAt(index) });
    }
    const newestFirst = made
      .map((record, index) => ({ id: record.id, at: deletedAt(index) }))
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .map((entry) => entry.id);

    const all = await deletedList();
    expect([all.deleted.length, all.limit, all.more]).toEqual([
      DELETED_RECORDS_LIMIT.max,
      DELETED_RECORDS_LIMIT.max,
      true,
    ]);
    expect(all.deleted.map((entry) => entry.record.id)).toEqual(newestFirst.slice(0, DELETED_RECORDS_LIMIT.max));
    const two = await deletedList('?limit=2');
    expect([two.deleted.map((entry) => entry.record.id), two.limit, two.more]).toEqual([
      newestFirst.slice(0, 2),
      2,
      true,
    ]);

    // Page after page with `before`, every deletion once, in order, the last page without a next.
    const paged: number[] = [];
    let next: string | undefined = '';
    for (let pages = 0; next !== undefined && pages < 20; pages++) {
      const page: DeletedRecordsPayload = await deletedList(`?limit=7${next ? `&before=${next}` : ''}`);
      paged.push(...page.deleted.map((entry) => entry.record.id));
      expect(page.next === undefined).toBe(!page.more);
      next = page.next;
    }
    expect(paged).toEqual(newestFirst);
    const refusedCursor = await demo.agent.get(`${DELETED}?before=yesterday`);
    expect([refusedCursor.status, (refusedCursor.body as ErrorBody).error.message]).toEqual([
      400,
      DELETED_RECORDS_MESSAGES.before,
    ]);

    for (const bad of ['?limit=0', '?limit=101', '?limit=ten', '?limit=1&limit=2']) {
      const refused = await demo.agent.get(`${DELETED}${bad}`);
      expect([bad, refused.status, (refused.body as ErrorBody).error.message]).toEqual([
        bad,
        400,
        DELETED_RECORDS_MESSAGES.limit,
      ]);
    }
    const unknown = await demo.agent.get(`${DELETED}?sort=title`);
    expect([unknown.status, (unknown.body as ErrorBody).error.message]).toEqual([
      400,
      DELETED_RECORDS_MESSAGES.unknownParameter('sort'),
    ]);
  });

  it('lets a viewer read the list but not restore; keeps it from anonymous callers and undeletable resources', async () => {
    const [gone] = await newArticles(1);
    await demo.agent.delete(`/api/resources/articles/records/${gone!.id}`).expect(200);
    await addUser(demo.host.app, 'vera', 'correct horse battery', ['acme']);
    await demo.host.app.users.setRole('vera', 'viewer');
    const viewer = await signedInAgent(demo.host.app, 'vera', 'correct horse battery');

    const seen = (await viewer.get(DELETED).expect(200)).body as DeletedRecordsPayload;
    expect(seen.deleted.map((entry) => entry.record.id)).toEqual([gone!.id]);
    expect((await viewer.post(`/api/resources/articles/records/${gone!.id}/restore`)).status).toBe(403);

    const anonymous = await request(demo.host.app.handler).get(DELETED);
    expect(anonymous.status).toBe(401);
    const notes = await demo.agent.get('/api/resources/notes/records/deleted');
    expect([notes.status, (notes.body as ErrorBody).error.message]).toEqual([
      405,
      RECORD_DELETE_MESSAGES.notAllowed('Notes'),
    ]);
  });

  it('answers the read of a deleted article with a 404 saying until when and where it can be restored', async () => {
    const [gone, tooOld] = await newArticles(2);
    const url = `/api/resources/articles/records/${gone!.id}`;
    const { restorableUntil } = (await demo.agent.delete(url).expect(200)).body as RecordDeletedPayload;

    const read = await demo.agent.get(url);
    expect(read.status).toBe(404);
    expect(read.body as ErrorBody).toEqual({
      error: {
        code: 'not_found',
        message: RECORD_DELETE_MESSAGES.deleted('article', gone!.title, 'Articles', restorableUntil),
        deletedRecord: { resource: 'articles', id: gone!.id, restorableUntil },
      },
    });
    expect((read.body as ErrorBody).error.message).toMatch(
      /was deleted\. It can be restored until .+ UTC from Recently deleted/,
    );

    // Past the window, of another tenant, or never made: no such record, as before. The one past the window is
    // deleted last, so that no later delete lets it go.
    const [globexArticle] = await newArticles(1, 'globex');
    await demo.host.app.records.delete('globex', 'articles', globexArticle!.id);
    await demo.host.app.records.delete('acme', 'articles', tooOld!.id, {
      now: Date.now() - RECORD_RESTORE_WINDOW_MS - 60_000,
    });
    for (const id of [tooOld!.id, globexArticle!.id, 999_999]) {
      const missing = await demo.agent.get(`/api/resources/articles/records/${id}`);
      expect([id, missing.status, missing.body]).toEqual([
        id,
        404,
        { error: { code: 'not_found', message: RESOURCE_MESSAGES.unknownRecord('articles', String(id)) } },
      ]);
    }
  });

  it('answers the save of an article deleted meanwhile with a 404 saying how to get it back, then saves it', async () => {
    const [gone] = await newArticles(1);
    const url = `/api/resources/articles/records/${gone!.id}`;
    const { restorableUntil } = (await demo.agent.delete(url).expect(200)).body as RecordDeletedPayload;

    const saved = await demo.agent.put(url).send({ title: 'Saved in another tab' });
    expect(saved.status).toBe(404);
    const { error } = saved.body as ErrorBody;
    expect(error).toEqual({
      code: 'not_found',
      message: RECORD_DELETE_MESSAGES.deletedMeanwhile('article', gone!.title, 'Articles', restorableUntil),
      deletedRecord: { resource: 'articles', id: gone!.id, restorableUntil },
    });
    expect(error.message).toMatch(/deleted meanwhile.+Restore it from Recently deleted.+then save again\.$/);
    expect(error.message).not.toContain(RESOURCE_MESSAGES.unknownRecord('articles', String(gone!.id)));

    // As the message says: restored, the same save lands.
    await demo.agent.post(`${url}/restore`).expect(200);
    const again = (await demo.agent.put(url).send({ title: 'Saved in another tab' }).expect(200)).body as RecordPayload;
    expect(again.record).toMatchObject({ id: gone!.id, title: 'Saved in another tab' });
  });

  return demo;
}

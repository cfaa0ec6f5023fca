/**
 * Bulk actions on every record a list matches (a query instead of ids), and their undo, on SQLite and on a real
 * PostgreSQL: the server finds the matches itself, in the session's tenant, on every page.
 */
import {
  RECORD_BULK_QUERY_MAX,
  UNCHANGED_FIELDS_KEY,
  type BulkRecordPayload,
  type BulkRecordRequest,
  type ErrorBody,
  type ResourceRecord,
} from '../../shared';
import { withNotes } from '../../testing/server/notes-resource';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp, type DemoTestApp } from '../../testing/server/test-app';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import { RECORD_BULK_MESSAGES } from './record-bulk';
import { UNCHANGED_FIELDS_MESSAGES } from './unchanged-fields';

describe('bulk actions on every match of a list, on SQLite', () => {
  bulkQueryCases(() => createDemoApp(withNotes));
});

describeWithPostgres()('bulk actions on every match of a list, on PostgreSQL', () => {
  const postgres = usePostgresDatabases('record_bulk_query', { poolSize: 4, statementTimeoutMs: 5000 });
  bulkQueryCases(async () => createDemoApp({ ...withNotes, storage: await postgres.create() }));
});

function bulkQueryCases(open: () => Promise<DemoTestApp>): void {
  const demo = useSignedInDemo(open);

  /** 130 matches of `search=crate&filter.group=news` in acme (more than a page, more than RECORD_BULK_MAX). */
  const seed = async (): Promise<ResourceRecord[]> => {
    const { records } = demo.host.app;
    const inserted: ResourceRecord[] = [];
    for (let index = 0; index < 150; index++) {
      const group = index % 15 === 0 ? 'guides' : 'news';
      const record = await records.insert('acme', 'articles', { title: `Crate ${index}`, label: 'C', group });
      if (group === 'news') inserted.push(record);
    }
    await records.insert('acme', 'articles', { title: 'Crate of guides', label: 'C', group: 'guides' });
    await records.insert('globex', 'articles', { title: 'Crate', label: 'Globex', group: 'news' });
    return inserted;
  };
  const list = { search: 'crate', 'filter.group': 'news' };
  const bulk = (body: BulkRecordRequest | Record<string, unknown>) =>
    demo.agent.post('/api/resources/articles/records/bulk').send(body);

  it('sets a field on every match, answering each earlier value, and sets them back', async () => {
    const matches = await seed();
    expect(matches).toHaveLength(140);
    const page = await demo.list('search=crate&filter.group=news');
    expect(page.page.total).toEqual({ count: 140, exact: true });
    // Some had a value of their own before: the undo must give each its own back.
    await demo.host.app.records.update('acme', 'articles', matches[3]?.id ?? 0, (current) => ({
      ...current,
      featured: true,
    }));

    const changed = await bulk({ action: 'update', query: { list, count: 140 }, values: { featured: false } });
    expect(changed.status).toBe(200);
    const { results } = changed.body as BulkRecordPayload;
    expect(results.map((result) => result.id)).toEqual(matches.map((each) => each.id));
    expect(results.every((result) => result.ok && result.record.featured === false)).toBe(true);
    const previous = results.map((result) => (result.ok ? result.previous?.featured : 'refused'));
    expect(previous[3]).toBe(true);
    expect(previous.filter((value) => value === null)).toHaveLength(139);
    // The other tenant and the records outside the filter were not reached.
    expect((await demo.list('search=crate&filter.featured=true')).page.total).toEqual({ count: 0, exact: true });
    const globex = await demo.host.app.records.list('globex', 'articles');
    expect(globex.find((each) => each.title === 'Crate')?.featured).toBeUndefined();

    // The undo: one update per earlier value, by ids, at most RECORD_BULK_MAX each.
    const back = await bulk({ action: 'update', ids: [matches[3]?.id ?? 0], values: { featured: true } });
    expect((back.body as BulkRecordPayload).results[0]).toMatchObject({ ok: true, previous: { featured: false } });
    expect((await demo.list('search=crate&filter.featured=true')).records.map((each) => each.id)).toEqual([
      matches[3]?.id,
    ]);
  }, 60_000);

  it('deletes every match, and restores them all', async () => {
    const matches = await seed();
    const deleted = await bulk({ action: 'delete', query: { list, count: 140 } });
    expect(deleted.status).toBe(200);
    const payload = deleted.body as BulkRecordPayload;
    expect(payload.results.filter((result) => result.ok)).toHaveLength(140);
    expect(payload.restorableUntil).toBeGreaterThan(Date.now());
    expect((await demo.list('search=crate')).records.map((each) => each.title)).toEqual(
      expect.arrayContaining(['Crate of guides', 'Crate 0']),
    );
    expect((await demo.list('search=crate')).page.total).toEqual({ count: 11, exact: true });

    const ids = matches.map((each) => each.id);
    for (let start = 0; start < ids.length; start += 100) {
      const restored = await bulk({ action: 'restore', ids: ids.slice(start, start + 100) });
      expect(restored.status).toBe(200);
      expect((restored.body as BulkRecordPayload).results.every((result) => result.ok)).toBe(true);
    }
    expect((await demo.list('search=crate&filter.group=news')).page.total).toEqual({ count: 140, exact: true });
    // Restored already: said per record.
    const again = await bulk({ action: 'restore', ids: [ids[0] ?? 0] });
    expect((again.body as BulkRecordPayload).results[0]).toMatchObject({ ok: false, error: { code: 'not_found' } });
  }, 60_000);

  it('reaches the list shown when its q starts the sorted column, and reads a q without sort as the list does', async () => {
    // "wr" starts 30 titles and 30 other records' labels: which 30 a list shows depends on its sort.
    const { records } = demo.host.app;
    const byTitle: number[] = [];
    const byLabel: number[] = [];
    for (let index = 0; index < 30; index++) {
      byTitle.push((await records.insert('acme', 'articles', { title: `Wrongly hit ${index}`, label: 'ok' })).id);
      byLabel.push((await records.insert('acme', 'articles', { title: `Meant ${index}`, label: `wr${index}` })).id);
    }
    const shown = await demo.list('sort=label&q=wr');
    expect(shown.page.total).toEqual({ count: 30, exact: true });

    const closed = await bulk({
      action: 'update',
      query: { list: { q: 'wr', sort: 'label' }, count: 30 },
      values: { group: 'opinion' },
    });
    expect(closed.status).toBe(200);
    expect((closed.body as BulkRecordPayload).results.map((result) => result.id)).toEqual(byLabel);
    expect((await demo.list('sort=label&q=wr&filter.group=opinion')).page.total).toEqual({ count: 30, exact: true });
    expect((await demo.list('q=wr&filter.group=opinion')).page.total).toEqual({ count: 0, exact: true });

    // An older client's q alone: the column a list without sort searches (the first text column, the title).
    const deleted = await bulk({ action: 'delete', query: { list: { q: 'wr' }, count: 30 } });
    expect((deleted.body as BulkRecordPayload).results.map((result) => result.id)).toEqual(byTitle);
    expect((await demo.list('sort=label&q=wr')).page.total).toEqual({ count: 30, exact: true });
  });

  it('sets a field back only on the records still holding the value set, when the update says so ($ifUnchanged)', async () => {
    const { records } = demo.host.app;
    const ids: number[] = [];
    for (const title of ['Ann’s one', 'Ann’s two']) {
      ids.push((await records.insert('acme', 'articles', { title, label: 'L', group: 'guides' })).id);
    }
    const set = await bulk({ action: 'update', ids, values: { group: 'news' } });
    expect((set.body as BulkRecordPayload).results.every((result) => result.ok)).toBe(true);
    // Bob saves another group on the second since, as his form does.
    const bob = await demo.agent
      .put(`/api/resources/articles/records/${ids[1]}`)
      .send({ group: 'opinion', [UNCHANGED_FIELDS_KEY]: { group: 'news' } });
    expect(bob.status).toBe(200);

    const undo = await bulk({
      action: 'update',
      ids,
      values: { group: 'guides', [UNCHANGED_FIELDS_KEY]: { group: 'news' } },
    });
    expect(undo.status).toBe(200);
    const [first, second] = (undo.body as BulkRecordPayload).results;
    expect(first).toMatchObject({ id: ids[0], ok: true, record: { group: 'guides' }, previous: { group: 'news' } });
    expect(second).toMatchObject({
      id: ids[1],
      ok: false,
      error: {
        code: 'conflict',
        fields: { group: UNCHANGED_FIELDS_MESSAGES.field },
        storedRecord: { group: 'opinion' },
      },
    });
    expect((await records.get('acme', 'articles', ids[1] ?? 0))?.group).toBe('opinion');

    // A precondition naming no field of the resource is a 400 for the whole request, changing nothing.
    const refused = await bulk({
      action: 'update',
      ids,
      values: { group: 'news', [UNCHANGED_FIELDS_KEY]: { nope: 1 } },
    });
    expect([refused.status, (refused.body as ErrorBody).error.message]).toEqual([
      400,
      UNCHANGED_FIELDS_MESSAGES.unknownFields(['nope']),
    ]);
    expect((await records.get('acme', 'articles', ids[0] ?? 0))?.group).toBe('guides');
  });

  it('changes nothing when the matches are no longer those confirmed, or too many', async () => {
    await seed();
    const stale = await bulk({ action: 'delete', query: { list, count: 139 } });
    expect(stale.status).toBe(409);
    expect((stale.body as ErrorBody).error.message).toBe(RECORD_BULK_MESSAGES.countChanged(139, 140));
    expect((await demo.list('search=crate&filter.group=news')).page.total).toEqual({ count: 140, exact: true });

    for (let index = 0; index <= RECORD_BULK_QUERY_MAX - 140; index++) {
      await demo.host.app.records.insert('acme', 'articles', {
        title: `Crate extra ${index}`,
        label: 'C',
        group: 'news',
      });
    }
    const tooMany = await bulk({ action: 'update', query: { list, count: 1000 }, values: { featured: true } });
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as ErrorBody).error.message).toBe(
      RECORD_BULK_MESSAGES.tooMany(`more than ${RECORD_BULK_QUERY_MAX}`),
    );
    expect((await demo.list('search=crate&filter.featured=true')).page.total).toEqual({ count: 0, exact: true });
  }, 120_000);

  it('refuses a malformed query with a message saying what it takes', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ action: 'delete', query: { list, count: 1 }, ids: [1] }, RECORD_BULK_MESSAGES.idsOrQuery],
      [{ action: 'restore', query: { list, count: 1 } }, RECORD_BULK_MESSAGES.restoreByIds],
      [
        { action: 'delete', query: { list: { ...list, order: 'desc' }, count: 1 } },
        RECORD_BULK_MESSAGES.queryParameter('order'),
      ],
      [{ action: 'delete', query: { list } }, RECORD_BULK_MESSAGES.queryShape],
      [{ action: 'delete', query: { list, count: RECORD_BULK_QUERY_MAX + 1 } }, RECORD_BULK_MESSAGES.queryShape],
      [{ action: 'delete', query: { list: { search: 3 }, count: 1 } }, RECORD_BULK_MESSAGES.queryShape],
      [
        { action: 'delete', query: { list: { 'filter.body': 'x' }, count: 1 } },
        RECORD_LIST_MESSAGES.unknownFilter('articles', 'body', ['group', 'author', 'featured', 'published']),
      ],
    ];
    for (const [body, message] of refusals) {
      const refused = await bulk(body);
      expect([refused.status, (refused.body as ErrorBody).error.message]).toEqual([400, message]);
    }
    const notes = await demo.agent
      .post('/api/resources/notes/records/bulk')
      .send({ action: 'delete', query: { list: {}, count: 1 } });
    expect(notes.status).toBe(405);
  });
}

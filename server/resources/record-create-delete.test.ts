/**
 * Creating, deleting, restoring and finding records through the API, the same on both engines: SQLite (a file in a
 * temporary folder) and a real PostgreSQL (a fresh database per case).
 */
import request from 'supertest';
import {
  RECORD_TOTAL_BOUND,
  type BulkRecordPayload,
  type ErrorBody,
  type RecordDeletedPayload,
  type RecordListPayload,
  type RecordPayload,
  type ResourceDefinition,
} from '../../shared';
import { withNotes } from '../../testing/server/notes-resource';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp, type DemoTestApp } from '../../testing/server/test-app';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import { RECORD_DELETE_MESSAGES } from './record-delete-guard';
import { RESOURCE_MESSAGES } from './resources-router';
import { FIELD_MESSAGES, INVALID_RECORD_MESSAGE } from './validate-record-update';

describe('creating and deleting records through the API on SQLite', () => {
  lifeCases(() => createDemoApp(withNotes));
});

describeWithPostgres()('creating and deleting records through the API on PostgreSQL', () => {
  const postgres = usePostgresDatabases('record_life', { poolSize: 4, statementTimeoutMs: 5000 });
  lifeCases(async () => createDemoApp({ ...withNotes, storage: await postgres.create() }));
});

function lifeCases(open: () => Promise<DemoTestApp>): void {
  const demo = useSignedInDemo(open);

  it('keeps creating, deleting, restoring and bulk actions from anonymous and cross-site callers', async () => {
    const [article] = (await demo.list('limit=1')).records;
    if (!article) throw new Error('the demo has articles');
    const anonymous = request(demo.host.app.handler);
    expect((await anonymous.post('/api/resources/articles/records').send({ title: 'x', label: 'y' })).status).toBe(401);
    expect((await anonymous.delete(`/api/resources/articles/records/${article.id}`)).status).toBe(401);
    expect(
      (await anonymous.post('/api/resources/articles/records/bulk').send({ action: 'delete', ids: [1] })).status,
    ).toBe(401);
    const crossSite = await demo.agent
      .delete(`/api/resources/articles/records/${article.id}`)
      .set('Sec-Fetch-Site', 'cross-site');
    expect(crossSite.status).toBe(403);
    expect((await demo.agent.get(`/api/resources/articles/records/${article.id}`)).status).toBe(200);
  });

  it('says per resource whether records may be created and deleted', async () => {
    const articles = (await demo.agent.get('/api/resources/articles')).body as { resource: ResourceDefinition };
    expect([articles.resource.canCreate, articles.resource.canDelete]).toEqual([true, true]);
    const notes = (await demo.agent.get('/api/resources/notes')).body as { resource: ResourceDefinition };
    expect([notes.resource.canCreate, notes.resource.canDelete]).toEqual([false, false]);
    expect((await demo.agent.post('/api/resources/notes/records').send({ title: 'x', label: 'y' })).status).toBe(405);
    expect((await demo.agent.delete('/api/resources/notes/records/1')).status).toBe(405);
    // Refused before its body is read: the answer says why, not what is wrong with a body it would never take.
    const malformed = await demo.agent
      .post('/api/resources/notes/records')
      .set('Content-Type', 'application/json')
      .send('{ not json');
    expect([malformed.status, (malformed.body as ErrorBody).error.message]).toEqual([
      405,
      RESOURCE_MESSAGES.createNotAllowed('Notes'),
    ]);
  });

  it("says in every 405's Allow what this resource allows: not the create or delete it refuses", async () => {
    const allowOf = async (made: Promise<{ status: number; headers: Record<string, string> }>) => {
      const response = await made;
      return [response.status, response.headers.allow];
    };
    // Notes: neither created nor deleted.
    expect(await allowOf(demo.agent.delete('/api/resources/notes/records/1'))).toEqual([405, 'GET, PUT, HEAD']);
    expect(await allowOf(demo.agent.patch('/api/resources/notes/records/1').send({}))).toEqual([405, 'GET, PUT, HEAD']);
    expect(await allowOf(demo.agent.post('/api/resources/notes/records').send({ title: 'x' }))).toEqual([
      405,
      'GET, HEAD',
    ]);
    expect(await allowOf(demo.agent.get('/api/resources/notes/records/deleted'))).toEqual([405, '']);
    // HEAD is GET's: refused with it, not answered by the list's handler.
    expect(await allowOf(demo.agent.head('/api/resources/notes/records/deleted'))).toEqual([405, '']);
    expect(await allowOf(demo.agent.post('/api/resources/notes/records/1/restore'))).toEqual([405, '']);
    // Articles: both.
    expect(await allowOf(demo.agent.patch('/api/resources/articles/records/1').send({}))).toEqual([
      405,
      'GET, PUT, DELETE, HEAD',
    ]);
    expect(await allowOf(demo.agent.put('/api/resources/articles/records').send({}))).toEqual([405, 'GET, POST, HEAD']);
  });

  it('creates a record checked as an edit is, then finds it by a word in the middle of its title', async () => {
    const before = (await demo.list('')).page.total;
    const refused = await demo.agent.post('/api/resources/articles/records').send({ id: 5, title: '', group: 'nope' });
    expect(refused.status).toBe(400);
    expect((refused.body as ErrorBody).error).toMatchObject({
      message: INVALID_RECORD_MESSAGE,
      fields: {
        id: FIELD_MESSAGES.idOnCreate,
        title: FIELD_MESSAGES.required,
        label: FIELD_MESSAGES.required,
        group: FIELD_MESSAGES.notAnOption,
      },
    });
    const created = await demo.agent
      .post('/api/resources/articles/records')
      .send({ title: 'Quarterly zeppelin review', label: 'Review', group: 'news', body: 'Airships.' });
    expect(created.status).toBe(201);
    const { record } = created.body as RecordPayload;
    expect(record).toEqual({
      id: record.id,
      title: 'Quarterly zeppelin review',
      label: 'Review',
      group: 'news',
      body: 'Airships.',
    });
    expect(
      ((await demo.agent.get(`/api/resources/articles/records/${record.id}`)).body as RecordPayload).record,
    ).toEqual(record);
    const found = await demo.list('search=ZEPPEL');
    expect(found.records.map((each) => each.id)).toEqual([record.id]);
    expect(found.page).toMatchObject({ search: 'ZEPPEL', sort: 'relevance', total: { count: 1, exact: true } });
    expect((await demo.list('search=airships%20quarterly')).records.map((each) => each.id)).toEqual([record.id]);
    expect((await demo.list('')).page.total).toEqual({ count: before.count + 1, exact: true });
  });

  it('finds a created record by its words typed without accents or in capitals', async () => {
    const created = await demo.agent
      .post('/api/resources/articles/records')
      .send({ title: 'García Müller on the Straße', label: 'Names' });
    expect(created.status).toBe(201);
    const { record } = created.body as RecordPayload;
    for (const search of ['garcia', 'GARCÍA', 'mull', 'muller', 'Müll', 'garcia strasse']) {
      const found = await demo.list(`search=${encodeURIComponent(search)}`);
      expect([search, found.records.map((each) => each.id)]).toEqual([search, [record.id]]);
    }
  });

  it('deletes a record, which a restore brings back with its id within the window', async () => {
    const [article] = (await demo.list('search=headline')).records;
    if (!article) throw new Error('the demo has a headline guide');
    const deleted = await demo.agent.delete(`/api/resources/articles/records/${article.id}`);
    expect(deleted.status).toBe(200);
    const payload = deleted.body as RecordDeletedPayload;
    expect(payload.deleted).toEqual(article);
    expect(payload.restorableUntil).toBeGreaterThan(Date.now());
    expect((await demo.agent.get(`/api/resources/articles/records/${article.id}`)).status).toBe(404);
    expect((await demo.list('search=headline')).records).toEqual([]);
    // Sent again (its answer lost): answered as the first time, the record deleted once.
    const resent = await demo.agent.delete(`/api/resources/articles/records/${article.id}`);
    expect([resent.status, resent.body]).toEqual([200, payload]);

    const restored = await demo.agent.post(`/api/resources/articles/records/${article.id}/restore`);
    expect(restored.status).toBe(200);
    expect((restored.body as RecordPayload).record).toEqual(article);
    expect((await demo.list('search=headline')).records).toEqual([article]);
    // Restored already: said in the words of the resource's records.
    const again = await demo.agent.post(`/api/resources/articles/records/${article.id}/restore`);
    expect([again.status, (again.body as ErrorBody).error.message]).toEqual([
      404,
      RECORD_DELETE_MESSAGES.notRestorable('article', article.id),
    ]);
  });

  it('refuses to delete an author that articles still refer to, naming them', async () => {
    const authors = (await demo.agent.get('/api/resources/authors/records?search=ada')).body as RecordListPayload;
    const ada = authors.records[0];
    if (!ada) throw new Error('the demo has Ada Lovelace');
    const refused = await demo.agent.delete(`/api/resources/authors/records/${ada.id}`);
    expect(refused.status).toBe(409);
    const { error } = refused.body as ErrorBody;
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/^“Ada Lovelace” cannot be deleted: \d+ articles \(“Launching the spring catalogue”/);
    expect((await demo.agent.get(`/api/resources/authors/records/${ada.id}`)).status).toBe(200);

    const ofAda = (await demo.agent.get(`/api/resources/authors/records/${ada.id}`)).body as RecordPayload;
    for (const article of ofAda.relations.find((relation) => relation.name === 'articles')?.records ?? []) {
      expect((await demo.agent.delete(`/api/resources/articles/records/${article.id}`)).status).toBe(200);
    }
    expect((await demo.agent.delete(`/api/resources/authors/records/${ada.id}`)).status).toBe(200);
  });

  it('sorts a word search by a column, page after page, and a prefix search by its column', async () => {
    const everyPage = async (query: string): Promise<number[]> => {
      const ids: number[] = [];
      let page = await demo.list(`${query}&limit=2`);
      ids.push(...page.records.map((record) => record.id));
      while (page.page.next) {
        page = await demo.list(`${query}&limit=2&after=${page.page.next}`);
        ids.push(...page.records.map((record) => record.id));
      }
      return ids;
    };
    const matches = new Set((await demo.list('search=the&limit=100')).records.map((record) => record.id));
    expect(matches.size).toBeGreaterThan(2);
    const byTitle = (await demo.list('sort=title&limit=100')).records.map((record) => record.id);
    const expected = byTitle.filter((id) => matches.has(id));
    expect(await everyPage('search=the&sort=title')).toEqual(expected);
    expect(await everyPage('search=the&sort=title&order=desc')).toEqual([...expected].reverse());
    const searched = await demo.list('search=the&sort=title&limit=2');
    expect(searched.page).toMatchObject({ sort: 'title', search: 'the', total: { count: matches.size, exact: true } });
    // The fixed point outside checks rely on: q with sort=title, the matches in title order.
    const prefixed = await demo.list('q=the&sort=title');
    const titles = prefixed.records.map((record) => record.title.toLowerCase());
    expect(titles.every((title) => title.startsWith('the'))).toBe(true);
    expect(prefixed.records.map((record) => record.id)).toEqual(
      byTitle.filter((id) => prefixed.records.some((r) => r.id === id)),
    );
  });

  it('exports the whole list of a query as CSV: every page, the list columns, escaped, behind the session', async () => {
    const anonymous = request(demo.host.app.handler);
    expect((await anonymous.get('/api/resources/articles/records?format=csv')).status).toBe(401);
    const created = await demo.agent
      .post('/api/resources/articles/records')
      .send({ title: '=HYPERLINK("x") exported', label: 'says "hi", then leaves' });
    expect(created.status).toBe(201);
    // A label saved with a line break before one-line fields refused them: the export still quotes it whole.
    const { storage } = demo.host.app;
    const id = (created.body as { record: { id: number } }).record.id;
    const row = await storage.db.selectFrom('records').select('data').where('id', '=', id).executeTakeFirstOrThrow();
    const data = { ...(JSON.parse(row.data) as object), label: 'says "hi", then\nleaves' };
    await storage.db
      .updateTable('records')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', id)
      .execute();
    storage.noteWrite();
    const all = (await demo.list('limit=100')).records;
    // limit=1 and a cursor change nothing: an export is every page of the query from the first.
    const csv = await demo.agent.get('/api/resources/articles/records?format=csv&limit=1').buffer(true);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="articles.csv"');
    const text = csv.text;
    expect(text.startsWith('title,label,group,published,authorId\r\n')).toBe(true);
    expect(text).toContain('"\'=HYPERLINK(""x"") exported","says ""hi"", then\nleaves",,,\r\n');
    // One line per record (the one label with a line break is quoted), relation columns by the related title.
    expect(text.split('\r\n').length - 2).toBe(all.length);
    expect(text).toContain(',Ada Lovelace\r\n');

    const matches = await demo.list('search=exported&limit=100');
    const searched = (await demo.agent.get('/api/resources/articles/records?format=csv&search=exported').buffer(true))
      .text;
    expect(searched.split('\r\n').length - 2).toBe(matches.records.length);
    expect((await demo.agent.get('/api/resources/articles/records?format=xml')).status).toBe(400);

    // A byte-order mark only when asked (bom=1: the list page's link, for spreadsheets); scripts get none.
    expect(text.charCodeAt(0)).toBe('t'.charCodeAt(0));
    const marked = await demo.agent
      .get('/api/resources/articles/records?format=csv&bom=1')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    const bytes = marked.body as Buffer;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(text);
    for (const wrong of ['bom=yes&format=csv', 'bom=1', 'bom=1&bom=1&format=csv']) {
      const refused = await demo.agent.get(`/api/resources/articles/records?${wrong}`);
      expect(refused.status).toBe(400);
      expect((refused.body as { error: { message: string } }).error.message).toMatch(
        /^bom must be "1" beside format=csv/,
      );
    }
    expect((await demo.agent.get('/api/resources/articles/records?format=csv&sort=nope')).status).toBe(400);
  });

  it('finds a word inside Japanese, Chinese and Thai text, written without spaces', async () => {
    const titles = ['東京都庁の会議室', '北京大学生前来应聘', 'ภาษาไทยง่ายนิดเดียว'];
    for (const title of titles) {
      expect((await demo.agent.post('/api/resources/articles/records').send({ title, label: 'x' })).status).toBe(201);
    }
    // Each search word is a word of the text, not its start (the whole title was one word: only 東京 found it).
    for (const [search, title] of [
      ['会議', titles[0]],
      ['都庁 会議室', titles[0]],
      ['应聘', titles[1]],
      ['ไทย', titles[2]],
    ] as const) {
      const found = await demo.list(`search=${encodeURIComponent(search)}`);
      expect([search, found.records.map((record) => record.title)]).toEqual([search, [title]]);
    }
  });

  it('refuses a word search mixed with a prefix search, or without a word', async () => {
    const refused = async (query: string, message: string) => {
      const response = await demo.agent.get(`/api/resources/articles/records?${query}`);
      expect([query, response.status, (response.body as ErrorBody).error.message]).toEqual([query, 400, message]);
    };
    await refused('search=a&q=b&sort=title', RECORD_LIST_MESSAGES.wordsWithPrefix);
    await refused('search=%20!!', RECORD_LIST_MESSAGES.noWords);
    const first = await demo.list('search=the&limit=1');
    expect(first.page.next).toBeDefined();
    await refused(`search=a&after=${first.page.next ?? ''}`, RECORD_LIST_MESSAGES.otherList('after'));
    const second = await demo.list(`search=the&limit=1&after=${first.page.next ?? ''}`);
    expect(second.records[0]?.id).toBeGreaterThan(first.records[0]?.id ?? Infinity);
  });

  it('filters by a select and a relation, with the word search and the sort, refusing what it does not offer', async () => {
    const all = (await demo.list('limit=100')).records;
    const definition = ((await demo.agent.get('/api/resources/articles')).body as { resource: ResourceDefinition })
      .resource;
    expect(definition.filters).toEqual([
      { name: 'group', label: 'Group', kind: 'select', options: ['news', 'guides', 'opinion'] },
      { name: 'author', label: 'Author', kind: 'relation', resource: 'authors' },
      { name: 'featured', label: 'Featured', kind: 'checkbox' },
      { name: 'published', label: 'Published on', kind: 'dateRange' },
    ]);
    const news = await demo.list('filter.group=news&limit=2');
    expect(news.page.filters).toEqual({ group: 'news' });
    expect(news.page.total).toEqual({ count: all.filter((record) => record.group === 'news').length, exact: true });
    const authorId = all.find((record) => typeof record.authorId === 'number')?.authorId as number;
    const byAuthor = await demo.list(`filter.author=${authorId}&filter.group=news&sort=title&order=desc`);
    const expected = all
      .filter((record) => record.authorId === authorId && record.group === 'news')
      .sort((a, b) => (a.title.toLowerCase() < b.title.toLowerCase() ? 1 : -1));
    expect(byAuthor.records.map((record) => record.id)).toEqual(expected.map((record) => record.id));
    const words = await demo.list('filter.group=news&search=spring');
    expect(words.records.map((record) => record.id)).toEqual(
      all
        .filter((record) => record.group === 'news' && /spring/i.test(JSON.stringify(record)))
        .map((record) => record.id),
    );
    const refused = async (query: string, message: string) => {
      const response = await demo.agent.get(`/api/resources/articles/records?${query}`);
      expect([query, response.status, (response.body as ErrorBody).error.message]).toEqual([query, 400, message]);
    };
    await refused('filter.group=nope', RECORD_LIST_MESSAGES.badFilterValue('group', 'one of: news, guides, opinion'));
    await refused('filter.author=x', RECORD_LIST_MESSAGES.badFilterValue('author', 'a record id'));
    await refused(
      'filter.body=x',
      RECORD_LIST_MESSAGES.unknownFilter('articles', 'body', ['group', 'author', 'featured', 'published']),
    );
  });

  it('acts on many records in one request, each on its own, saying which failed and why', async () => {
    const authors = ((await demo.agent.get('/api/resources/authors/records')).body as RecordListPayload).records;
    const [ada, grace] = authors;
    if (!ada || !grace) throw new Error('the demo has authors');
    const lone = (
      (await demo.agent.post('/api/resources/authors/records').send({ title: 'Lone', label: 'L' }))
        .body as RecordPayload
    ).record;

    const changed = await demo.agent
      .post('/api/resources/authors/records/bulk')
      .send({ action: 'update', ids: [ada.id, 999_999, lone.id], values: { group: 'guest' } });
    expect(changed.status).toBe(200);
    const { results } = changed.body as BulkRecordPayload;
    expect(results.map((result) => [result.id, result.ok])).toEqual([
      [ada.id, true],
      [999_999, false],
      [lone.id, true],
    ]);
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      ((await demo.agent.get(`/api/resources/authors/records/${lone.id}`)).body as RecordPayload).record.group,
    ).toBe('guest');
    const invalid = await demo.agent
      .post('/api/resources/authors/records/bulk')
      .send({ action: 'update', ids: [ada.id], values: { group: 'nope' } });
    expect((invalid.body as BulkRecordPayload).results[0]).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', fields: { group: FIELD_MESSAGES.notAnOption } },
    });

    // Ada wrote articles: her delete is refused, Lone's goes through, and can be restored.
    const deleted = await demo.agent
      .post('/api/resources/authors/records/bulk')
      .send({ action: 'delete', ids: [ada.id, lone.id] });
    const payload = deleted.body as BulkRecordPayload;
    expect(payload.results.map((result) => [result.id, result.ok])).toEqual([
      [ada.id, false],
      [lone.id, true],
    ]);
    expect(payload.results[0]).toMatchObject({ error: { code: 'conflict' } });
    expect(payload.restorableUntil).toBeGreaterThan(Date.now());
    expect((await demo.agent.get(`/api/resources/authors/records/${ada.id}`)).status).toBe(200);
    expect((await demo.agent.get(`/api/resources/authors/records/${lone.id}`)).status).toBe(404);
    expect((await demo.agent.post(`/api/resources/authors/records/${lone.id}/restore`)).status).toBe(200);

    for (const body of [
      { action: 'delete', ids: [] },
      { action: 'delete', ids: [1, 1] },
      { action: 'drop', ids: [1] },
      { action: 'update', ids: [1] },
    ]) {
      expect((await demo.agent.post('/api/resources/authors/records/bulk').send(body)).status).toBe(400);
    }
    expect(
      (await demo.agent.post('/api/resources/notes/records/bulk').send({ action: 'delete', ids: [1] })).status,
    ).toBe(405);
  });

  it('counts a list exactly up to the bound and says more beyond it', async () => {
    for (let index = 0; index <= RECORD_TOTAL_BOUND; index++) {
      await demo.host.app.records.insert('acme', 'articles', { title: `Filler ${index}`, label: 'F' });
    }
    expect((await demo.list('')).page.total).toEqual({ count: RECORD_TOTAL_BOUND, exact: false });
    expect((await demo.list('search=filler')).page.total).toEqual({ count: RECORD_TOTAL_BOUND, exact: false });
    // Each word matches the start of a word: 10, 100 to 109 and 1000.
    expect((await demo.list('search=filler%2010')).page.total).toEqual({ count: 12, exact: true });
    expect((await demo.list('sort=title&q=filler%2099')).page.total).toEqual({ count: 11, exact: true });
  }, 30_000);
}

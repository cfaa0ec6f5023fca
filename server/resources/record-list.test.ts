import Database from 'better-sqlite3';
import type request from 'supertest';
import {
  RECORD_LIST_LIMIT,
  type ErrorBody,
  type RecordListPayload,
  type ResourcePayload,
  type ResourceRecord,
} from '../../shared';
import { createDemoApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import type { RecordPosition } from '../storage/record-page-query';
import { registerSqliteSortFold } from '../storage/sort-fold';

/** Names whose order depends on ignoring case, with ties, a missing email and letters outside ASCII. */
const EXTRA_AUTHORS = Array.from({ length: 57 }, (_, index) => ({
  title: `${['grace', 'Greta', 'ada', 'Zoe', 'émile', 'Bob'][index % 6]} ${String(index % 9)}`,
  label: `Author ${index}`,
  ...(index % 4 === 0 ? {} : { email: `${String.fromCharCode(97 + (index % 26))}${index}@example.org` }),
}));

/** The order the API promises: letters lower-cased without their accents, missing values as '', then the id. */
function expectedOrder(records: ResourceRecord[], column: string, descending = false): number[] {
  const key = (record: ResourceRecord) =>
    String(record[column] ?? '')
      .normalize('NFD')
      .toLowerCase()
      .replace(/[\u0300-\u036f]/g, '');
  const sorted = [...records].sort((a, b) => {
    const [ka, kb] = [Buffer.from(key(a)), Buffer.from(key(b))];
    return Buffer.compare(ka, kb) || a.id - b.id;
  });
  if (descending) sorted.reverse();
  return sorted.map((record) => record.id);
}

describe('record lists: server-side pages, sort and search', () => {
  let testApp: TestApp;
  let agent: request.Agent;
  let acmeAuthors: ResourceRecord[];

  beforeAll(async () => {
    testApp = await createDemoApp();
    for (const author of EXTRA_AUTHORS) await testApp.app.records.insert('acme', 'authors', author);
    await testApp.app.records.insert('globex', 'authors', { title: 'Grace of Globex', label: 'Globex' });
    acmeAuthors = await testApp.app.records.list('acme', 'authors');
    agent = await signedInAgent(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const list = async (query: string) => {
    const response = await agent.get(`/api/resources/authors/records${query}`);
    expect(response.status).toBe(200);
    return response.body as RecordListPayload;
  };

  /**
   * Every page from the first, following `next`; then back from the last, following `previous`. Each page says how
   * many records precede it (`offset`), either way.
   */
  async function walk(query: string): Promise<{ forward: number[]; backward: number[]; pages: number }> {
    const forward: number[] = [];
    let page = await list(`?${query}`);
    let pages = 1;
    expect(page.page.offset).toBe(0);
    forward.push(...page.records.map((record) => record.id));
    expect(page.page.previous).toBeUndefined();
    while (page.page.next) {
      page = await list(`?${query}&after=${page.page.next}`);
      pages++;
      expect(page.page.offset).toBe(forward.length);
      forward.push(...page.records.map((record) => record.id));
    }
    const backward: number[] = page.records.map((record) => record.id);
    while (page.page.previous) {
      page = await list(`?${query}&before=${page.page.previous}`);
      backward.unshift(...page.records.map((record) => record.id));
      expect(page.page.offset).toBe(forward.length - backward.length);
    }
    return { forward, backward, pages };
  }

  it('describes what each resource can be sorted and searched by', async () => {
    const { resource } = (await agent.get('/api/resources/authors')).body as ResourcePayload;
    expect(resource.sortableColumns).toEqual(['title', 'email', 'group']);
    expect(resource.searchableColumns).toEqual(['title', 'email', 'group']);
  });

  it('answers the first page by id, at most the default limit, with a cursor to the next', async () => {
    const payload = await list('');
    expect(acmeAuthors.length).toBeGreaterThan(RECORD_LIST_LIMIT.default);
    expect(payload.records).toEqual(acmeAuthors.slice(0, RECORD_LIST_LIMIT.default));
    expect(payload.page).toEqual({
      sort: 'id',
      order: 'asc',
      limit: RECORD_LIST_LIMIT.default,
      q: '',
      search: '',
      filters: {},
      total: { count: acmeAuthors.length, exact: true },
      offset: 0,
      next: expect.any(String),
    });
  });

  it('walks every record of the tenant exactly once, forwards and back, by id either way', async () => {
    const ascending = await walk('limit=7');
    expect(ascending.forward).toEqual(acmeAuthors.map((record) => record.id));
    expect(ascending.backward).toEqual(ascending.forward);
    expect(ascending.pages).toBe(Math.ceil(acmeAuthors.length / 7));
    const descending = await walk('limit=10&order=desc');
    expect(descending.forward).toEqual(acmeAuthors.map((record) => record.id).reverse());
    expect(descending.backward).toEqual(descending.forward);
  });

  it.each([
    ['title', 'asc'],
    ['title', 'desc'],
    ['email', 'asc'],
    ['email', 'desc'],
    ['group', 'asc'],
  ] as const)(
    'sorts by %s %s, ignoring the case of letters, records without a value as empty',
    async (column, order) => {
      const { forward, backward } = await walk(`sort=${column}&order=${order}&limit=8`);
      expect(forward).toEqual(expectedOrder(acmeAuthors, column, order === 'desc'));
      expect(backward).toEqual(forward);
    },
  );

  it('searches the sorted column for a prefix, ignoring capitals and accents, a page at a time', async () => {
    const matching = acmeAuthors.filter((record) => /^gr/i.test(record.title));
    expect(matching.length).toBeGreaterThan(10);
    const { forward, backward } = await walk('q=gR&limit=4');
    expect(forward).toEqual(expectedOrder(matching, 'title'));
    expect(backward).toEqual(forward);
    const page = await list('?q=gR&limit=4');
    expect(page.page).toMatchObject({ sort: 'title', order: 'asc', q: 'gR' });

    const byEmail = await walk('q=B&sort=email&order=desc&limit=3');
    const withB = acmeAuthors.filter((record) => typeof record.email === 'string' && record.email.startsWith('b'));
    expect(byEmail.forward).toEqual(expectedOrder(withB, 'email', true));

    // Accented letters match with or without their accents and capitals; a search nothing matches answers an empty page.
    const emile = acmeAuthors.filter((record) => record.title.startsWith('émile 1'));
    expect(emile.length).toBeGreaterThan(1);
    // …typed with a combining accent too (e and U+0301, as macOS may send it).
    for (const typed of ['ÉMILE 1', 'émile 1', 'Emile 1', 'emile 1', 'e\u0301mile 1', 'E\u0301MILE 1']) {
      expect([typed, (await list(`?q=${encodeURIComponent(typed)}`)).records]).toEqual([typed, emile]);
    }
    expect(await list('?q=nobody')).toEqual({
      records: [],
      page: {
        sort: 'title',
        order: 'asc',
        limit: 25,
        q: 'nobody',
        search: '',
        filters: {},
        total: { count: 0, exact: true },
        offset: 0,
      },
      times: {},
    });
  });

  it('keeps every page inside the tenant, whatever the cursor', async () => {
    const acmePage = await list('?sort=title&limit=3');
    await agent.post('/tenant').send({ tenant: 'globex' });
    try {
      const globex = await list('?sort=title&limit=100');
      expect(globex.records.map((record) => record.title)).toEqual(['Frank Grimes', 'Grace of Globex', 'Hank Scorpio']);
      const searched = await list('?q=gra');
      expect(searched.records.map((record) => record.title)).toEqual(['Grace of Globex']);
      const afterAcmeCursor = await list(`?sort=title&limit=100&after=${acmePage.page.next}`);
      for (const record of afterAcmeCursor.records) expect(globex.records).toContainEqual(record);
    } finally {
      await agent.post('/tenant').send({ tenant: 'acme' });
    }
  });

  it.each([
    ['?limit=0', RECORD_LIST_MESSAGES.limit],
    ['?limit=101', RECORD_LIST_MESSAGES.limit],
    ['?limit=ten', RECORD_LIST_MESSAGES.limit],
    ['?limit=2.5', RECORD_LIST_MESSAGES.limit],
    ['?order=up', RECORD_LIST_MESSAGES.order],
    ['?sort=label', RECORD_LIST_MESSAGES.sort('authors', ['id', 'title', 'email', 'group'])],
    ['?sort=data', RECORD_LIST_MESSAGES.sort('authors', ['id', 'title', 'email', 'group'])],
    ['?q=a&sort=id', RECORD_LIST_MESSAGES.searchNeedsTextSort('authors', ['title', 'email', 'group'])],
    [`?q=${'a'.repeat(201)}`, RECORD_LIST_MESSAGES.searchTooLong],
    ['?page=2', RECORD_LIST_MESSAGES.unknownParameter('page')],
    ['?limit=5&limit=6', RECORD_LIST_MESSAGES.repeated('limit')],
    ['?after=abc&before=abc', RECORD_LIST_MESSAGES.bothCursors],
    ['?after=not-a-cursor', RECORD_LIST_MESSAGES.badCursor('after')],
    ['?before=%7B%7D', RECORD_LIST_MESSAGES.badCursor('before')],
  ])('refuses %s with a 400 that says what is wrong', async (query, message) => {
    const response = await agent.get(`/api/resources/authors/records${query}`);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body as ErrorBody).toEqual({ error: { code: 'invalid_request', message } });
  });

  it('refuses a cursor from another sort or search', async () => {
    const byTitle = await list('?sort=title&limit=2');
    const searched = await list('?q=g&limit=2');
    for (const query of [
      `?sort=email&after=${byTitle.page.next}`,
      `?after=${byTitle.page.next}`,
      `?sort=title&after=${searched.page.next}`,
      `?q=gr&after=${searched.page.next}`,
    ]) {
      const response = await agent.get(`/api/resources/authors/records${query}`);
      expect(response.status).toBe(400);
      expect((response.body as ErrorBody).error.message).toBe(RECORD_LIST_MESSAGES.otherList('after'));
    }
  });

  it('says no offset for a cursor that carries none, and refuses one whose offset is not a count', async () => {
    const first = await list('?limit=2');
    const decoded = JSON.parse(Buffer.from(first.page.next ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(decoded.o).toBe(2);
    const cursor = (body: Record<string, unknown>) => Buffer.from(JSON.stringify(body)).toString('base64url');
    const { o: _offset, ...older } = decoded;
    const second = await list(`?limit=2&after=${cursor(older)}`);
    expect(second.records).toEqual(acmeAuthors.slice(2, 4));
    expect(second.page).not.toHaveProperty('offset');
    // The cursors it gives carry none either: nothing is made up.
    const third = await list(`?limit=2&after=${second.page.next}`);
    expect(third.page).not.toHaveProperty('offset');
    // An offset past what the list holds now (records before the page deleted since) is brought within it.
    const far = await list(`?limit=2&after=${cursor({ ...decoded, o: 10_000 })}`);
    expect(far.page.offset).toBe(acmeAuthors.length - far.records.length);
    for (const offset of [-1, 1.5, '2', 2 ** 53]) {
      const response = await agent.get(
        `/api/resources/authors/records?limit=2&after=${cursor({ ...decoded, o: offset })}`,
      );
      expect(response.status).toBe(400);
      expect((response.body as ErrorBody).error.message).toBe(RECORD_LIST_MESSAGES.badCursor('after'));
    }
  });

  it('counts a list once while nothing is written, and shows every write in its total at once', async () => {
    const db = testApp.app.database.db;
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = jest.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof db.prepare);
    const total = async (query: string) => (await list(query)).page.total;
    const counts = () => statements.filter((sql) => /count\(\*\)/i.test(sql)).length;
    try {
      const first = await list('?sort=title&limit=3&search=gr');
      const counted = counts();
      expect(counted).toBeGreaterThan(0);
      // The next page and the other order are the same list: its total is not counted again.
      await list(`?sort=title&limit=3&search=gr&after=${first.page.next ?? ''}`);
      await list('?sort=title&order=desc&limit=5&search=gr');
      expect(counts()).toBe(counted);

      const before = await total('?sort=title&search=gr');
      const added = await testApp.app.records.insert('acme', 'authors', { title: 'Grant Counted', label: 'A' });
      expect(await total('?sort=title&search=gr')).toEqual({ count: before.count + 1, exact: true });
      await testApp.app.records.delete('acme', 'authors', added.id);
      expect(await total('?sort=title&search=gr')).toEqual(before);
      await testApp.app.records.restore('acme', 'authors', added.id);
      expect(await total('?sort=title&search=gr')).toEqual({ count: before.count + 1, exact: true });
      await testApp.app.records.delete('acme', 'authors', added.id);
      // Another connection's commit (another process on the file) is seen as well.
      const all = await total('');
      const other = new Database(db.name);
      // The indexes on text sort keys call the server's fold, as the bench's writer knows (registerSqliteSortFold).
      registerSqliteSortFold(other);
      try {
        other
          .prepare(
            "INSERT INTO records (tenant_id, resource, data, created_at, updated_at) VALUES ('acme', 'authors', ?, 0, 0)",
          )
          .run(JSON.stringify({ title: 'Zed Elsewhere', label: 'Z' }));
      } finally {
        other.close();
      }
      expect(await total('')).toEqual({ count: all.count + 1, exact: true });
    } finally {
      spy.mockRestore();
    }
  });

  it('reads each page through an index range, never sorting or skipping the table', async () => {
    const db = testApp.app.database.db;
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = jest.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      const count = (sql.match(/\?/g) ?? []).length;
      const plan = prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(
        ...Array<number>(count).fill(1),
      );
      plans.push(plan.map((row) => row.detail).join(' | '));
      return prepare(sql);
    }) as typeof db.prepare);
    try {
      const pager = testApp.app.records;
      const title = { column: 'title', kind: 'text' } as const;
      const first = await pager.page('acme', 'authors', { sort: title, descending: false, limit: 3, prefix: 'g' });
      await pager.page('acme', 'authors', {
        sort: title,
        descending: false,
        limit: 3,
        prefix: 'g',
        ...pick(first.next),
      });
      await pager.page('acme', 'authors', { sort: title, descending: true, limit: 3, before: { key: 'm', id: 1 } });
      await pager.page('acme', 'authors', { sort: { column: 'id' }, descending: false, limit: 3, after: { id: 5 } });
    } finally {
      spy.mockRestore();
    }
    expect(plans.length).toBeGreaterThanOrEqual(6);
    // A page after a cursor first reads the records tied with it, from the cursor's id on: no tie is read twice.
    expect(plans.some((plan) => plan.includes('<expr>=? AND id>?'))).toBe(true);
    for (const plan of plans) {
      expect(plan).toMatch(
        /^SEARCH records USING INDEX (records_list_folded_\w+|records_tenant_resource) \(tenant_id=\? AND resource=\? AND (<expr>|id|<expr>=\? AND id)[<>]\?/,
      );
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN/);
    }
  });
});

function pick(next: RecordPosition | undefined): { after: RecordPosition } {
  if (!next) throw new Error('expected a next page');
  return { after: next };
}

/**
 * Date fields and the date-range filter through the API, on both engines: a day validated on create and update,
 * lists filtered by a range of days (either end open, both included) with the other filters, the word search, any
 * sort and keyset pages, counted, and the same records on SQLite and PostgreSQL for the same data.
 */
import type { ErrorBody, RecordPayload, ResourceDefinition, ResourceRecord } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp, type DemoTestApp } from '../../testing/server/test-app';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import { FIELD_MESSAGES, INVALID_RECORD_MESSAGE } from './validate-record-update';

const GROUPS = ['news', 'guides', 'opinion'];

/** The day of article `index`: spread over 2021 to 2025 with repeats (ties), none or '' for some. */
function dayOf(index: number): string | undefined {
  if (index % 6 === 0) return undefined;
  if (index % 10 === 5) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  const spread = index % 13; // articles 13 apart share their day
  return `${2021 + (spread % 5)}-${pad(((spread * 7) % 12) + 1)}-${pad(((spread * 11) % 28) + 1)}`;
}

/** A list query and the records it must show, in order, worked out from the data alone. */
interface ListCase {
  query: string;
  keep: (record: ResourceRecord) => boolean;
  order?: (a: ResourceRecord, b: ResourceRecord) => number;
}

const day = (record: ResourceRecord) => (typeof record.published === 'string' ? record.published : '');
const within = (record: ResourceRecord, from: string, to: string) =>
  day(record) !== '' && day(record) >= from && day(record) <= to;
const byId = (a: ResourceRecord, b: ResourceRecord) => a.id - b.id;
const byDay = (a: ResourceRecord, b: ResourceRecord) => (day(a) === day(b) ? a.id - b.id : day(a) < day(b) ? -1 : 1);
const lower = (record: ResourceRecord) => record.title.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
const byTitle = (a: ResourceRecord, b: ResourceRecord) =>
  lower(a) === lower(b) ? a.id - b.id : lower(a) < lower(b) ? -1 : 1;

const CASES: readonly ListCase[] = [
  { query: 'filter.published=2023-01-01..2024-12-31', keep: (record) => within(record, '2023-01-01', '2024-12-31') },
  {
    query: 'filter.published=2024-01-01..&sort=published&order=desc',
    keep: (record) => within(record, '2024-01-01', '9999-12-31'),
    order: (a, b) => byDay(b, a),
  },
  {
    query: 'filter.published=..2022-06-30&filter.featured=true',
    keep: (record) => within(record, '0001-01-01', '2022-06-30') && record.featured === true,
  },
  {
    query: 'filter.published=2022-01-01..2025-12-31&filter.group=news&search=alpha&sort=id',
    keep: (record) =>
      within(record, '2022-01-01', '2025-12-31') && record.group === 'news' && record.title.includes('alpha'),
  },
  {
    query: 'filter.published=2021-03-01..2024-10-31&filter.featured=false&sort=title',
    keep: (record) => within(record, '2021-03-01', '2024-10-31') && record.featured !== true,
    order: byTitle,
  },
  {
    query: 'filter.published=2022-01-01..2023-12-31&sort=published',
    keep: (record) => within(record, '2022-01-01', '2023-12-31'),
    order: byDay,
  },
];

const answersByEngine = new Map<string, string[][]>();

describe('date fields and ranges of days through the API on SQLite', () => {
  dayRangeCases('SQLite', () => createDemoApp());
});

describeWithPostgres()('date fields and ranges of days through the API on PostgreSQL', () => {
  const postgres = usePostgresDatabases('record_days', { poolSize: 4, statementTimeoutMs: 5000 });
  dayRangeCases('PostgreSQL', async () => createDemoApp({ storage: await postgres.create() }));
});

describe('ranges of days across engines', () => {
  it('answers every range with the same records on SQLite and PostgreSQL', () => {
    // PostgreSQL's suite is skipped (with its install command) where the package is missing; CI has both.
    if (answersByEngine.size < 2) return;
    expect(answersByEngine.get('PostgreSQL')).toEqual(answersByEngine.get('SQLite'));
  });
});

function dayRangeCases(engine: string, open: () => Promise<DemoTestApp>): void {
  const demo = useSignedInDemo(open);

  const refused = async (query: string, message: string) => {
    const response = await demo.agent.get(`/api/resources/articles/records?${query}`);
    expect([query, response.status, (response.body as ErrorBody).error.message]).toEqual([query, 400, message]);
  };

  it('takes a day as YYYY-MM-DD on create and update, and refuses anything else naming the field', async () => {
    const definition = ((await demo.agent.get('/api/resources/articles')).body as { resource: ResourceDefinition })
      .resource;
    expect(definition.fields).toContainEqual(expect.objectContaining({ name: 'published', input: 'date' }));
    expect(definition.filters).toContainEqual({ name: 'published', label: 'Published on', kind: 'dateRange' });
    expect(definition.sortableColumns).toContain('published');

    const created = await demo.agent
      .post('/api/resources/articles/records')
      .send({ title: 'Leap day', label: 'L', published: '2024-02-29' });
    expect(created.status).toBe(201);
    const { id } = (created.body as RecordPayload).record;
    expect((created.body as RecordPayload).record.published).toBe('2024-02-29');

    for (const bad of ['2023-02-29', '2024-13-01', '15/03/2024', '2024-3-5', 20240305, true]) {
      const response = await demo.agent
        .post('/api/resources/articles/records')
        .send({ title: 'Bad day', label: 'B', published: bad });
      expect([bad, response.status, response.body]).toEqual([
        bad,
        400,
        {
          error: expect.objectContaining({
            message: INVALID_RECORD_MESSAGE,
            fields: { published: FIELD_MESSAGES.notADay },
          }),
        },
      ]);
    }
    const badUpdate = await demo.agent.put(`/api/resources/articles/records/${id}`).send({ published: '2024-04-31' });
    expect(badUpdate.status).toBe(400);
    expect((badUpdate.body as ErrorBody).error.fields).toEqual({ published: FIELD_MESSAGES.notADay });
    // A cleared day (a day picker emptied sends '') is no day, as null is: the record keeps none.
    const cleared = await demo.agent.put(`/api/resources/articles/records/${id}`).send({ published: '' });
    expect([cleared.status, (cleared.body as RecordPayload).record]).toEqual([
      200,
      expect.not.objectContaining({ published: expect.anything() }),
    ]);
    await demo.agent.put(`/api/resources/articles/records/${id}`).send({ published: '2024-03-15' }).expect(200);
    const removed = await demo.agent.put(`/api/resources/articles/records/${id}`).send({ published: null });
    expect([removed.status, (removed.body as RecordPayload).record.published]).toEqual([200, undefined]);
  });

  it('refuses a malformed day, a day the calendar lacks and a range that ends before it starts', async () => {
    await refused('filter.published=yesterday', RECORD_LIST_MESSAGES.badDayRange('published'));
    await refused('filter.published=..', RECORD_LIST_MESSAGES.badDayRange('published'));
    await refused('filter.published=2024-01-01', RECORD_LIST_MESSAGES.badDayRange('published'));
    await refused('filter.published=2024-1-1..', RECORD_LIST_MESSAGES.badDayRange('published'));
    await refused('filter.published=2023-02-29..', RECORD_LIST_MESSAGES.notADay('published', '2023-02-29'));
    await refused(
      'filter.published=2025-01-01..2024-01-01',
      RECORD_LIST_MESSAGES.reversedDayRange('published', '2025-01-01', '2024-01-01'),
    );
    await refused(
      'filter.published=2024-01-01..&filter.published=..2024-02-01',
      RECORD_LIST_MESSAGES.repeated('filter.published'),
    );
  });

  it('filters by a range of days with other filters, words and any sort, page by page both ways, counted', async () => {
    for (let index = 0; index < 30; index++) {
      const published = dayOf(index);
      const response = await demo.agent.post('/api/resources/articles/records').send({
        title: `Dated ${index % 2 ? 'alpha' : 'beta'} ${String(29 - index).padStart(2, '0')}`,
        label: 'D',
        group: GROUPS[index % 3],
        ...(published === undefined ? {} : { published }),
        ...(index % 4 === 0 ? {} : { featured: index % 3 === 1 }),
      });
      expect(response.status).toBe(201);
    }
    const all = (await demo.list('limit=100')).records;
    // One day held by two records, asked for alone: both ends are included.
    const tied = all.map(day).find((each, index, days) => each !== '' && days.indexOf(each) !== index);
    if (!tied) throw new Error('the data has two records on one day');
    const cases = [
      ...CASES,
      { query: `filter.published=${tied}..${tied}`, keep: (record: ResourceRecord) => day(record) === tied },
    ];
    const answers: string[][] = [];
    for (const { query, keep, order = byId } of cases) {
      const expected = all.filter(keep).sort(order);
      expect([query, expected.length > 0]).toEqual([query, true]);
      let page = await demo.list(`${query}&limit=3`);
      expect(page.page.total).toEqual({ count: expected.length, exact: true });
      const shown = [...page.records];
      while (page.page.next) {
        page = await demo.list(`${query}&limit=3&after=${page.page.next}`);
        shown.push(...page.records);
      }
      expect([query, shown.map((record) => record.id)]).toEqual([query, expected.map((record) => record.id)]);
      // Back from the last page to the first, the same records in reverse.
      const back = [...page.records];
      while (page.page.previous) {
        page = await demo.list(`${query}&limit=3&before=${page.page.previous}`);
        back.unshift(...page.records);
      }
      expect([query, back.map((record) => record.id)]).toEqual([query, expected.map((record) => record.id)]);
      answers.push([query, ...shown.map((record) => record.title)]);
    }
    answersByEngine.set(engine, answers);
  });
}

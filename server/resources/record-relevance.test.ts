/**
 * A word search in relevance order: the rule on its own, then every page of a result larger than the ranked part,
 * both ways, on SQLite and on a real PostgreSQL, and the records API's default and refusal.
 */
import type { ErrorBody, ResourceRecord } from '../../shared';
import { ENGINES } from '../../testing/server/engines-under-test';
import { withNotes } from '../../testing/server/notes-resource';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp } from '../../testing/server/test-app';
import { openMigratedStorage } from '../storage/open-storage';
import type { RecordPageQuery } from '../storage/record-page-query';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import { relevanceOf } from './record-relevance';
import { StoredRecordSource } from './stored-record-source';

const record = (fields: Partial<ResourceRecord>): ResourceRecord => ({ id: 1, title: '', label: '', ...fields });

describe('relevanceOf', () => {
  it('scores each word by where it is found: the first column above others, a whole word above a start', () => {
    expect(relevanceOf(record({ title: 'Spring catalogue' }), ['spring'], 'title')).toBe(4);
    expect(relevanceOf(record({ title: 'Springtime' }), ['spring'], 'title')).toBe(3);
    expect(relevanceOf(record({ title: 'Other', label: 'spring' }), ['spring'], 'title')).toBe(2);
    expect(relevanceOf(record({ title: 'Other', body: 'springs' }), ['spring'], 'title')).toBe(1);
    expect(relevanceOf(record({ title: 'Other' }), ['spring'], 'title')).toBe(0);
    // Each word counts once, at its best place; accents fold as the word index folds them.
    expect(relevanceOf(record({ title: 'Café Spring', label: 'spring' }), ['spring', 'cafe'], 'title')).toBe(8);
    // The first column is the resource's, not always the title.
    expect(relevanceOf(record({ title: 'spring', name: 'Springs' }), ['spring'], 'name')).toBe(3);
  });
});

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`relevance pages on ${engineUnderTest.name}`, () => {
    let engine: StorageEngine;

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);
    beforeEach(async () => {
      engine = await openMigratedStorage(await engineUnderTest.freshDatabase());
      await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
      await new TenantStore(engine).save({ id: 'globex', name: 'Globex' });
    });
    afterEach(() => engine.close());

    it('lists every match once, the ranked ones best first and then the older ones, forwards and backwards', async () => {
      // Six matches are ranked (the newest), the 17 older ones follow newest first.
      const records = new StoredRecordSource(engine, { relevanceRanked: 6 });
      const titles = ['Lamp', 'Lamp shade', 'Desk lamps', 'Red', 'Lamp lamp', 'Blue'];
      for (let index = 0; index < 23; index++) {
        const title = titles[index % titles.length] ?? '';
        await records.insert('acme', 'articles', { title, label: title === 'Red' ? 'lamp' : 'L', body: 'lamplight' });
      }
      await records.insert('acme', 'articles', { title: 'Chair', label: 'C' });
      await records.insert('globex', 'articles', { title: 'Lamp', label: 'G', body: 'lamplight' });
      const all = await records.list('acme', 'articles');
      const matches = all.filter((each) => each.title !== 'Chair');
      const newest = [...matches].sort((a, b) => b.id - a.id);
      const ranked = newest
        .slice(0, 6)
        .sort((a, b) => relevanceOf(b, ['lamp'], 'title') - relevanceOf(a, ['lamp'], 'title') || b.id - a.id);
      const expected = [...ranked, ...newest.slice(6)].map((each) => each.id);
      expect(relevanceOf(ranked[0] ?? record({}), ['lamp'], 'title')).toBe(4);

      const query: RecordPageQuery = {
        sort: { column: 'id' },
        descending: false,
        limit: 4,
        words: ['lamp'],
        relevance: { primary: 'title' },
      };
      const forward: number[] = [];
      const pages = [];
      for (let page = await records.page('acme', 'articles', query); ; ) {
        pages.push(page);
        forward.push(...page.records.map((each) => each.id));
        if (!page.next) break;
        page = await records.page('acme', 'articles', { ...query, after: page.next });
      }
      expect(forward).toEqual(expected);
      expect(pages[0]?.previous).toBeUndefined();

      const backward: number[] = [];
      const last = pages.at(-1);
      if (!last?.previous) throw new Error('the last page has a previous one');
      backward.unshift(...last.records.map((each) => each.id));
      for (let page = await records.page('acme', 'articles', { ...query, before: last.previous }); ; ) {
        backward.unshift(...page.records.map((each) => each.id));
        if (!page.previous) break;
        page = await records.page('acme', 'articles', { ...query, before: page.previous });
      }
      expect(backward).toEqual(expected);
      // The count ignores the order: every match of the tenant.
      expect(await records.countPage('acme', 'articles', query, 100)).toBe(23);
    });
  });
}

describe('the records API in relevance order', () => {
  const demo = useSignedInDemo(() => createDemoApp(withNotes));

  it('orders a word search by relevance unless asked otherwise, and refuses relevance without words', async () => {
    const insert = (title: string, label: string) =>
      demo.host.app.records.insert('acme', 'articles', { title, label, body: 'About rockets.' });
    const exactInTitle = await insert('Rocket launch', 'L');
    const inLabel = await insert('Moon', 'rocket');
    const startInTitle = await insert('Rocketry basics', 'L');
    const startElsewhere = await insert('Mars', 'L');

    const byDefault = await demo.list('search=rocket');
    expect(byDefault.page.sort).toBe('relevance');
    expect(byDefault.records.map((each) => each.id)).toEqual([
      exactInTitle.id,
      startInTitle.id,
      inLabel.id,
      startElsewhere.id,
    ]);
    expect((await demo.list('search=rocket&sort=relevance')).records).toEqual(byDefault.records);

    // A search still sorts by a column when asked; a prefix search by its column, as before.
    const byTitle = await demo.list('search=rocket&sort=title');
    expect(byTitle.records.map((each) => each.title)).toEqual(['Mars', 'Moon', 'Rocket launch', 'Rocketry basics']);
    const prefix = await demo.list('q=rocket&sort=title');
    expect(prefix.records.map((each) => each.title)).toEqual(['Rocket launch', 'Rocketry basics']);

    for (const query of ['sort=relevance', 'q=rocket&sort=relevance']) {
      const refused = await demo.agent.get(`/api/resources/articles/records?${query}`);
      expect(refused.status).toBe(400);
      expect((refused.body as ErrorBody).error.message).toBe(RECORD_LIST_MESSAGES.relevanceNeedsWords);
    }

    // A cursor of the relevance order leads on in it; in CSV, the same order.
    const first = await demo.list('search=rocket&limit=2');
    const second = await demo.list(`search=rocket&limit=2&after=${first.page.next ?? ''}`);
    expect([...first.records, ...second.records]).toEqual(byDefault.records);
    const csv = await demo.agent.get('/api/resources/articles/records?search=rocket&format=csv');
    expect(
      csv.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['Rocket launch', 'Rocketry basics', 'Moon', 'Mars']);
  });
});

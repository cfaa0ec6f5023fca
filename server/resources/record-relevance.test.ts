/**
 * A word search in relevance order: the rule on its own, and the records API's default and refusal (every page of a
 * result larger than the ranked part, on both engines, is in record-life-contract.test.ts).
 */
import type { ErrorBody, ResourceRecord } from '../../shared';
import { withNotes } from '../../testing/server/notes-resource';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp } from '../../testing/server/test-app';
import { RECORD_LIST_MESSAGES } from './parse-record-list-query';
import { relevanceOf } from './record-relevance';

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

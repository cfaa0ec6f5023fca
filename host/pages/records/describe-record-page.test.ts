import type { RecordListPage } from '../../../shared';
import { describeRecordPage } from './describe-record-page';

const nouns = { one: 'article', many: 'articles' };
const page = (changes: Partial<RecordListPage>): RecordListPage => ({
  sort: 'title',
  order: 'asc',
  limit: 25,
  q: '',
  search: '',
  filters: {},
  total: { count: 31, exact: true },
  ...changes,
});

describe('describeRecordPage', () => {
  it('says how many a first page shows, and which ones a later page shows', () => {
    expect(describeRecordPage(page({ offset: 0 }), 25, nouns, 'Title')).toBe(
      'Showing 25 of 31 articles, by title, ascending.',
    );
    expect(describeRecordPage(page({ offset: 25 }), 6, nouns, 'Title')).toBe(
      'Showing 26 to 31 of 31 articles, by title, ascending.',
    );
    expect(describeRecordPage(page({ offset: 1500, total: { count: 1000, exact: false } }), 25, nouns, 'Title')).toBe(
      'Showing 1,501 to 1,525 of more than 1,000 articles, by title, ascending.',
    );
  });

  it('says only how many when the page does not know its offset (a cursor of an older server)', () => {
    expect(describeRecordPage(page({ previous: 'c' }), 6, nouns, 'Title')).toBe(
      'Showing 6 of 31 articles, by title, ascending.',
    );
  });

  it('says an empty page holds none where the list holds others (its records deleted since), not that none exist', () => {
    const none = { count: 0, exact: true };
    expect(describeRecordPage(page({ offset: 25, total: { count: 25, exact: true } }), 0, nouns, 'Title')).toBe(
      'No articles on this page; the list holds 25 articles.',
    );
    expect(describeRecordPage(page({ search: 'crate', total: { count: 3, exact: true } }), 0, nouns, 'Title')).toBe(
      'No articles with the words “crate” on this page; the list holds 3 articles.',
    );
    expect(describeRecordPage(page({ total: none }), 0, nouns, 'Title')).toBe('No articles in this tenant yet.');
    expect(describeRecordPage(page({ search: 'crate', total: none }), 0, nouns, 'Title')).toBe(
      'No articles with the words “crate”.',
    );
  });
});

import { RECORD_LIST_LIMIT } from '../../../shared';
import { DEFAULT_LIST_PREFERENCES, readListPreferences, saveListPreferences } from './list-preferences';

describe('list preferences', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per user and resource', () => {
    saveListPreferences('ada', 'articles', { pageSize: 50, hiddenColumns: ['label'] });
    expect(readListPreferences('ada', 'articles')).toEqual({ pageSize: 50, hiddenColumns: ['label'] });
    expect(readListPreferences('grace', 'articles')).toEqual(DEFAULT_LIST_PREFERENCES);
    expect(readListPreferences('ada', 'authors')).toEqual(DEFAULT_LIST_PREFERENCES);
  });

  it('read anything unreadable as the defaults', () => {
    localStorage.setItem('slots:list-preferences:["ada","articles"]', '{not json');
    expect(readListPreferences('ada', 'articles')).toEqual(DEFAULT_LIST_PREFERENCES);
    localStorage.setItem('slots:list-preferences:["ada","articles"]', '{"pageSize":7,"hiddenColumns":[1,"group"]}');
    expect(readListPreferences('ada', 'articles')).toEqual({
      pageSize: RECORD_LIST_LIMIT.default,
      hiddenColumns: ['group'],
    });
  });
});

import type { RecordListPayload, ResourceDefinition, ResourceRecord } from '../../shared';

/** A small articles resource, as `GET /api/resources/articles` describes it: what the host's list tests render. */
export const ARTICLES_DEFINITION: ResourceDefinition = {
  name: 'articles',
  label: 'Articles',
  recordLabel: 'article',
  fields: [{ type: 'field', name: 'title', label: 'Title', input: 'text' }],
  relations: [],
  listColumns: ['title', 'label'],
  sortableColumns: ['title'],
  searchableColumns: ['title'],
  filters: [],
  canCreate: true,
  canDelete: true,
};

/** `GET /api/resources/articles/records` answering `records`, the first page by id, all of them counted. */
export function articlesPage(records: ResourceRecord[]): RecordListPayload {
  return {
    records,
    page: {
      sort: 'id',
      order: 'asc',
      limit: 25,
      q: '',
      search: '',
      filters: {},
      total: { count: records.length, exact: true },
    },
  } as RecordListPayload;
}

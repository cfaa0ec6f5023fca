import { RELEVANCE_SORT, type RecordListPage, type SortOrder } from '../../../shared';

/**
 * The state of a list page, kept in the address (`?q=&search=&sort=&order=&after=&before=`) so that a reload, a shared link
 * and Back show the same page. The names are the API's (RecordListQuery): the address passes them on as they are.
 */
export interface RecordListLocation {
  q: string;
  /** The word search ('' for none); a list has either it or `q`. */
  search?: string;
  /** The filters applied, by name (`filter.<name>=` in the address and the API). */
  filters?: Readonly<Record<string, string>>;
  sort: string;
  order: SortOrder;
  after?: string;
  before?: string;
}

const FILTER_PREFIX = 'filter.';

const PASSED_ON = ['q', 'search', 'sort', 'order', 'after', 'before'] as const;

export function readRecordListLocation(params: URLSearchParams): RecordListLocation {
  const after = params.get('after');
  const before = params.get('before');
  const search = params.get('search');
  return {
    q: params.get('q') ?? '',
    ...(search ? { search } : {}),
    sort: params.get('sort') ?? '',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
}

/** The API path of the page the address shows: only the parameters it sets (anything else is the API's default). */
export function recordListApiPath(resource: string, params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of PASSED_ON) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  for (const [name, value] of params) if (name.startsWith(FILTER_PREFIX) && value) query.set(name, value);
  const search = query.toString();
  return `/api/resources/${encodeURIComponent(resource)}/records${search ? `?${search}` : ''}`;
}

/** The address query of a list: '' values and the defaults (ascending, no search) left out. */
export function recordListSearch(location: RecordListLocation): URLSearchParams {
  const query = new URLSearchParams();
  if (location.q) query.set('q', location.q);
  if (location.search) query.set('search', location.search);
  for (const [name, value] of Object.entries(location.filters ?? {}))
    if (value) query.set(`${FILTER_PREFIX}${name}`, value);
  if (location.sort) query.set('sort', location.sort);
  if (location.order === 'desc') query.set('order', 'desc');
  if (location.after) query.set('after', location.after);
  if (location.before) query.set('before', location.before);
  return query;
}

/**
 * The sort of a list page as its address names it: none for the server's default (by id, or by relevance during a
 * word search), the column otherwise. By id during a word search is a choice, not the default: left out, the next
 * page's address asked for relevance with the cursor of a list by id, which the server refuses.
 */
export function addressSort(page: Pick<RecordListPage, 'sort' | 'search'>): string {
  return page.sort === (page.search ? RELEVANCE_SORT : 'id') ? '' : page.sort;
}

/** The address of a neighbouring page: the list as the server applied it, with the cursor. */
export function neighbourPage(page: RecordListPage, cursor: { after: string } | { before: string }): URLSearchParams {
  return recordListSearch({
    q: page.q,
    search: page.search,
    filters: page.filters,
    sort: addressSort(page),
    order: page.order,
    ...cursor,
  });
}

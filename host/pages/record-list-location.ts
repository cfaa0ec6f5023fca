import type { RecordListPage, SortOrder } from '../../shared';

/**
 * The state of a list page, kept in the address (`?q=&search=&sort=&order=&after=&before=`) so that a reload, a shared link
 * and Back show the same page. The names are the API's (RecordListQuery): the address passes them on as they are.
 */
export interface RecordListLocation {
  q: string;
  /** The word search ('' for none); a list has either it or `q`. */
  search?: string;
  sort: string;
  order: SortOrder;
  after?: string;
  before?: string;
}

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
  const search = query.toString();
  return `/api/resources/${encodeURIComponent(resource)}/records${search ? `?${search}` : ''}`;
}

/** The address query of a list: '' values and the defaults (ascending, no search) left out. */
export function recordListSearch(location: RecordListLocation): URLSearchParams {
  const query = new URLSearchParams();
  if (location.q) query.set('q', location.q);
  if (location.search) query.set('search', location.search);
  if (location.sort) query.set('sort', location.sort);
  if (location.order === 'desc') query.set('order', 'desc');
  if (location.after) query.set('after', location.after);
  if (location.before) query.set('before', location.before);
  return query;
}

/** The address of a neighbouring page: the list as the server applied it, with the cursor. */
export function neighbourPage(page: RecordListPage, cursor: { after: string } | { before: string }): URLSearchParams {
  return recordListSearch({
    q: page.q,
    search: page.search,
    sort: page.sort === 'id' ? '' : page.sort,
    order: page.order,
    ...cursor,
  });
}

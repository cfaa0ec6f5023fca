import type { RecordListPage } from '../../shared';

/** "56 articles", "more than 1,000 articles": the list's total as the server counted it. */
export function describeTotal(page: RecordListPage, what: string): string {
  const count = page.total.count.toLocaleString('en');
  return page.total.exact ? `${count} ${what}` : `more than ${count} ${what}`;
}

/**
 * The status line of a list, read out when the page changes: how many shown out of how many, in what order, for
 * which search.
 */
export function describeRecordPage(page: RecordListPage, count: number, label: string, sortLabel: string): string {
  const what = label.toLowerCase();
  const searched = page.search
    ? ` with the words “${page.search}”`
    : page.q
      ? ` whose ${sortLabel.toLowerCase()} starts with “${page.q}”`
      : '';
  const matching = `${searched}${Object.keys(page.filters).length > 0 ? ', filtered' : ''}`;
  if (count === 0) {
    if (matching) return `No ${what}${matching}.`;
    return page.next || page.previous ? `No more ${what}.` : `No ${what} in this tenant yet.`;
  }
  const order =
    page.sort === 'id'
      ? page.order === 'asc'
        ? 'oldest first'
        : 'newest first'
      : `by ${sortLabel.toLowerCase()}, ${page.order === 'asc' ? 'ascending' : 'descending'}`;
  return `Showing ${count} of ${describeTotal(page, what)}${matching}, ${order}.`;
}

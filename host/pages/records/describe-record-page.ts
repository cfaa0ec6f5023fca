import { RELEVANCE_SORT, type RecordListPage, type ResourceDefinition } from '../../../shared';
import { countOf } from '../common/count-in-words';

/** What a list's records are called: one (`article`) and several (the resource's label, `articles`). */
export interface RecordNouns {
  one: string;
  many: string;
}

/** The nouns of a resource's records, from its definition. */
export function recordNouns(definition: Pick<ResourceDefinition, 'label' | 'recordLabel'>): RecordNouns {
  return { one: definition.recordLabel ?? 'record', many: definition.label.toLowerCase() };
}

/** "1 article", "56 articles", "more than 1,000 articles": the list's total as the server counted it. */
export function describeTotal(page: RecordListPage, nouns: RecordNouns): string {
  const total = countOf(page.total.count, nouns.one, nouns.many);
  return page.total.exact ? total : `more than ${total}`;
}

/**
 * The status line of a list, read out when the page changes: how many shown (which, past the first page) out of how
 * many, in what order, for which search.
 */
export function describeRecordPage(page: RecordListPage, count: number, nouns: RecordNouns, sortLabel: string): string {
  const what = nouns.many;
  const searched = page.search
    ? ` with the words “${page.search}”`
    : page.q
      ? ` whose ${sortLabel.toLowerCase()} starts with “${page.q}”`
      : '';
  const matching = `${searched}${Object.keys(page.filters).length > 0 ? ', filtered' : ''}`;
  if (count === 0) {
    // A page reached by a cursor whose records were deleted since: the list still holds others, elsewhere.
    if (page.total.count > 0)
      return `No ${what}${matching} on this page; the list holds ${describeTotal(page, nouns)}.`;
    if (matching) return `No ${what}${matching}.`;
    return page.next || page.previous ? `No more ${what}.` : `No ${what} in this tenant yet.`;
  }
  const order =
    page.sort === RELEVANCE_SORT
      ? 'best matches first'
      : page.sort === 'id'
        ? page.order === 'asc'
          ? 'oldest first'
          : 'newest first'
        : `by ${sortLabel.toLowerCase()}, ${page.order === 'asc' ? 'ascending' : 'descending'}`;
  // Past the first page, which of them: "26 to 31 of 31" (page 2 read "6 of 31", as if five records were missing).
  const shown =
    page.offset !== undefined && page.offset > 0
      ? `${(page.offset + 1).toLocaleString('en')} to ${(page.offset + count).toLocaleString('en')}`
      : count.toLocaleString('en');
  return `Showing ${shown} of ${describeTotal(page, nouns)}${matching}, ${order}.`;
}

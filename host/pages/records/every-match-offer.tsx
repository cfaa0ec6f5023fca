import type { Ref } from 'react';
import { RECORD_BULK_QUERY_MAX, type RecordListPage } from '../../../shared';
import { countOf } from '../common/count-in-words';
import { describeTotal, type RecordNouns } from './describe-record-page';

/**
 * The list's search and filters as a bulk request names them (BulkRecordQuery.list): what the server applied. With
 * `q`, the sort too: `q` matches the start of the sorted column, so another sort is another list.
 */
export function listQuery(page: RecordListPage): Record<string, string> {
  const list: Record<string, string> = {};
  if (page.q) Object.assign(list, { q: page.q, sort: page.sort });
  if (page.search) list.search = page.search;
  for (const [name, value] of Object.entries(page.filters)) list[`filter.${name}`] = value;
  return list;
}

/** Which list "every match" was chosen for: another search or filter is another list. */
export function listQueryKey(page: RecordListPage): string {
  return JSON.stringify(listQuery(page));
}

/**
 * With the whole page selected, the offer to reach every record the list matches, on every page; past what one bulk
 * action may reach (RECORD_BULK_QUERY_MAX), what to do instead.
 */
export function EveryMatchOffer({
  page,
  nouns,
  onChoose,
  buttonRef,
}: {
  page: RecordListPage;
  nouns: RecordNouns;
  onChoose(): void;
  /** The offer's button, for the focus to come back to it when the page alone is chosen again. */
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  if (!page.total.exact || page.total.count > RECORD_BULK_QUERY_MAX) {
    return (
      <p className="bulk-actions__every">
        This list matches {describeTotal(page, nouns)}: narrow it with a search or a filter to act on every match at
        once.
      </p>
    );
  }
  return (
    <button ref={buttonRef} type="button" className="button button--secondary button--small" onClick={onChoose}>
      Select all {countOf(page.total.count, nouns.one, nouns.many)} this list matches
    </button>
  );
}

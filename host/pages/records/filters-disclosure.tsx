import { Fragment, type ReactNode } from 'react';
import { dayRangeEnds, type RecordFilterDefinition, type RecordPayload } from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { dayInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

/**
 * "Group: news", "Published on: 1 Jan 2024 to 30 Jun 2024", "Author: Alan Turing": one applied filter, in words. A
 * relation's record by its title when known (`title`), else by its id; days as the list's cells write them
 * (dayInWords, in `locales`).
 */
export function describeAppliedFilter(
  filter: RecordFilterDefinition,
  value: string,
  title?: string,
  locales: readonly string[] = readerLocales(),
): string {
  if (filter.kind === 'checkbox') return `${filter.label}: ${value === 'true' ? 'ticked' : 'not ticked'}`;
  if (filter.kind === 'dateRange') {
    const ends = dayRangeEnds(value);
    const [from, to] = [ends.from, ends.to].map((day) => (day ? dayInWords(day, locales) : day));
    return `${filter.label}: ${from && to ? `${from} to ${to}` : from ? `from ${from}` : `until ${to}`}`;
  }
  if (filter.kind === 'relation') return `${filter.label}: ${title || `record #${value}`}`;
  return `${filter.label}: ${value}`;
}

/**
 * The list's filters folded under "Filters (n)", the filters applied said beside it, so that the rows start within
 * the first screen (the form took four rows of controls above them). Closed at first; the browser keeps it open
 * while the list reloads, as the element stays.
 */
export function FiltersDisclosure({
  filters,
  applied,
  children,
}: {
  filters: readonly RecordFilterDefinition[];
  applied: Readonly<Record<string, string>>;
  children: ReactNode;
}) {
  const said = filters.flatMap((filter) => {
    const value = applied[filter.name];
    return value ? [{ filter, value }] : [];
  });
  return (
    <details className="list-filters-disclosure">
      <summary className="list-filters-disclosure__summary">
        Filters ({said.length})
        <span className="list-filters-disclosure__applied">
          {said.length > 0 ? ': ' : ': none applied'}
          {said.map(({ filter, value }, index) => (
            <Fragment key={filter.name}>
              {index > 0 && ', '}
              {filter.kind === 'relation' ? (
                <AppliedRelation filter={filter} value={value} />
              ) : (
                describeAppliedFilter(filter, value)
              )}
            </Fragment>
          ))}
        </span>
      </summary>
      {children}
    </details>
  );
}

/** A relation filter applied, its record named by its title (asked for once; by its id until then, or if gone). */
function AppliedRelation({ filter, value }: { filter: RecordFilterDefinition; value: string }) {
  const valid = filter.resource !== undefined && /^[1-9]\d*$/.test(value);
  const record = useApi<RecordPayload>(
    valid ? `/api/resources/${encodeURIComponent(filter.resource!)}/records/${value}` : null,
  );
  const title = record.status === 'ready' ? String(record.data.record.title ?? '') : undefined;
  return <>{describeAppliedFilter(filter, value, title)}</>;
}

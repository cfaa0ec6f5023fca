import type { ReactNode } from 'react';
import { dayRangeEnds, type RecordFilterDefinition } from '../../../shared';

/** "Group: news", "Published on: 2024-01-01 to 2024-06-30": one applied filter, in words. */
export function describeAppliedFilter(filter: RecordFilterDefinition, value: string): string {
  if (filter.kind === 'checkbox') return `${filter.label}: ${value === 'true' ? 'ticked' : 'not ticked'}`;
  if (filter.kind === 'dateRange') {
    const { from, to } = dayRangeEnds(value);
    return `${filter.label}: ${from && to ? `${from} to ${to}` : from ? `from ${from}` : `until ${to}`}`;
  }
  if (filter.kind === 'relation') return `${filter.label}: record #${value}`;
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
    return value ? [describeAppliedFilter(filter, value)] : [];
  });
  return (
    <details className="list-filters-disclosure">
      <summary className="list-filters-disclosure__summary">
        Filters ({said.length})
        <span className="list-filters-disclosure__applied">
          {said.length > 0 ? `: ${said.join(', ')}` : ': none applied'}
        </span>
      </summary>
      {children}
    </details>
  );
}

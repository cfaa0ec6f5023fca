import { Link } from 'react-router-dom';
import type { FieldItem, JsonValue, ResourceRecord } from '../../../shared';
import { DayTime } from './day-time';

export interface FieldValueProps {
  field?: FieldItem | undefined;
  value: JsonValue | undefined;
  /** For a relation field: the records of its relation at hand, the one it points at named by its title. */
  related?: readonly ResourceRecord[] | undefined;
}

/** A record value as text for reading (view page, list); a relation's record as a link to its page. */
export function FieldValue({ field, value, related }: FieldValueProps) {
  if (value === undefined || value === null || value === '') return <span className="muted">—</span>;
  if (field?.input === 'relation' && field.resource && typeof value === 'number') {
    const record = related?.find((each) => each.id === value);
    // Not at hand: the record it pointed at was deleted meanwhile (a restore brings it back).
    if (!record) return <span className="muted">#{value} (deleted)</span>;
    return (
      <Link to={`/resources/${encodeURIComponent(field.resource)}/${value}`}>
        <bdi>{record.title || `#${value}`}</bdi>
      </Link>
    );
  }
  if (field?.input === 'checkbox' || typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>;
  // Text in its own direction, isolated from what is around it (see FieldControl).
  if (field?.input === 'textarea') {
    return (
      <span className="prewrap" dir="auto">
        {String(value)}
      </span>
    );
  }
  // In words, in the reader's form (`15 Jan 2024`); the `<time>` keeps the stored day.
  if (field?.input === 'date' && typeof value === 'string') return <DayTime day={value} />;
  if (field?.input === 'email' && typeof value === 'string') return <a href={`mailto:${value}`}>{value}</a>;
  return <bdi>{String(value)}</bdi>;
}

import type { FieldItem, JsonValue } from '../../shared';

/** A record value as text for reading (view page, list). */
export function FieldValue({ field, value }: { field?: FieldItem | undefined; value: JsonValue | undefined }) {
  if (value === undefined || value === null || value === '') return <span className="muted">—</span>;
  if (field?.input === 'checkbox' || typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>;
  if (field?.input === 'textarea') return <span className="prewrap">{String(value)}</span>;
  if (field?.input === 'date' && typeof value === 'string') return <time dateTime={value}>{value}</time>;
  if (field?.input === 'email' && typeof value === 'string') return <a href={`mailto:${value}`}>{value}</a>;
  return <>{String(value)}</>;
}

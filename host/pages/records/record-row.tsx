import { memo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type {
  FieldItem,
  RecordDeletedPayload,
  RecordListPayload,
  ResourceDefinition,
  ResourceRecord,
} from '../../../shared';
import { DayTime } from './day-time';
import { DeleteRecordButton } from './delete-record-button';
import { FieldValue } from './field-value';

/** A column of a record list: its field's name, and its definition when the field is one (not a computed column). */
export interface RecordColumn {
  name: string;
  field: FieldItem | undefined;
}

/**
 * The class of a column's heading and cells: a number column's figures are aligned on the right, each as wide as the
 * others (tabular), so that their digits line up and amounts compare at a glance, down the column as across rows.
 */
export function recordColumnClass(column: RecordColumn): string | undefined {
  return column.field?.input === 'number' ? 'table__number' : undefined;
}

export interface RecordRowProps {
  definition: ResourceDefinition;
  record: ResourceRecord;
  /** The columns shown, the first linking to the record's page. */
  columns: readonly RecordColumn[];
  /** The records the list's relation columns point at, by column (RecordListPayload.related). */
  related: RecordListPayload['related'];
  mayChange: boolean;
  /** Whether the list offers bulk actions, so the row can be selected. */
  selectable: boolean;
  selected: boolean;
  /** What follows the row's box: the way to the bulk actions, in the row ticked last (ToBulkActions). */
  afterSelectBox?: ReactNode;
  onToggle(id: number): void;
  onDeleted(payload: RecordDeletedPayload): void;
  onGone(message: string): void;
}

/**
 * One record of a list. Memoised: a list re-renders while its next page loads (the rows stay, marked busy) and for
 * every ticked box, and each row holds two router links and a delete button; only a row whose record, columns or
 * selection changed renders again, so the page's callbacks passed here must keep their identity.
 */
export const RecordRow = memo(function RecordRow({
  definition,
  record,
  columns,
  related,
  mayChange,
  selectable,
  selected,
  afterSelectBox,
  onToggle,
  onDeleted,
  onGone,
}: RecordRowProps) {
  const name = encodeURIComponent(definition.name);
  const title = String(record.title || `#${record.id}`);
  return (
    <tr data-record-id={record.id}>
      {columns.map((column, index) => (
        <td key={column.name} className={recordColumnClass(column)}>
          {index === 0 ? (
            <Link to={`/resources/${name}/${record.id}`}>
              {/* A date field's day in words, as in the other columns. */}
              {column.field?.input === 'date' && record[column.name] ? (
                <DayTime day={String(record[column.name])} />
              ) : (
                <bdi>{String(record[column.name] ?? '') || `#${record.id}`}</bdi>
              )}
            </Link>
          ) : (
            <FieldValue field={column.field} value={record[column.name]} related={related?.[column.name]} />
          )}
        </td>
      ))}
      <td className="table__actions">
        {/* A viewer may change nothing here: no selection for bulk actions, no way to the edit form. */}
        {mayChange && (
          <>
            {selectable && (
              <input
                type="checkbox"
                className="table__select"
                aria-label={`Select ${title}`}
                checked={selected}
                onChange={() => onToggle(record.id)}
              />
            )}
            {selectable && afterSelectBox}
            <Link to={`/resources/${name}/${record.id}/edit`} className="button button--ghost button--small">
              {/* Named by its record, as Delete beside it: a list of links read out is not "Edit" 25 times. */}
              Edit<span className="visually-hidden"> {title}</span>
            </Link>
          </>
        )}
        <DeleteRecordButton definition={definition} record={record} small onDeleted={onDeleted} onGone={onGone} />
      </td>
    </tr>
  );
});

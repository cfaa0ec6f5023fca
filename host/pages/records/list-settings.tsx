import { useId } from 'react';
import { PAGE_SIZES, type ListPreferences } from './list-preferences';

export interface ListSettingsProps {
  /** The list's columns, in order; the first (the record's link) is always shown. */
  columns: readonly { name: string; label: string }[];
  preferences: ListPreferences;
  onChange(preferences: ListPreferences): void;
}

/**
 * Rows per page and the columns shown, folded under "Columns and rows" beside the list's count: chosen once, they
 * apply at once and are remembered for the user (list-preferences.ts).
 */
export function ListSettings({ columns, preferences, onChange }: ListSettingsProps) {
  const sizeId = useId();
  return (
    <details className="list-settings">
      <summary className="list-settings__summary">Columns and rows</summary>
      <div className="list-settings__body">
        <label htmlFor={sizeId} className="field__label">
          Rows per page
        </label>
        <select
          id={sizeId}
          className="input"
          value={preferences.pageSize}
          onChange={(event) => onChange({ ...preferences, pageSize: Number(event.target.value) })}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <fieldset className="list-settings__columns">
          <legend className="field__label">Columns shown</legend>
          {columns.map((column, index) => (
            <label key={column.name} className="list-settings__column">
              <input
                type="checkbox"
                className="table__select"
                checked={index === 0 || !preferences.hiddenColumns.includes(column.name)}
                disabled={index === 0}
                onChange={(event) =>
                  onChange({
                    ...preferences,
                    hiddenColumns: event.target.checked
                      ? preferences.hiddenColumns.filter((hidden) => hidden !== column.name)
                      : [...preferences.hiddenColumns, column.name],
                  })
                }
              />
              {column.label}
            </label>
          ))}
        </fieldset>
      </div>
    </details>
  );
}

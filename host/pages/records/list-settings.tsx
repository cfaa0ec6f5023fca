import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { PAGE_SIZES, type ListPreferences } from './list-preferences';

/**
 * Keys that move a closed drop-down's choice one step (arrows, Home, End, pages) or to a choice by its first letters:
 * browsing, not choosing. Chromium changes the value, and fires `change`, at each of them. Space, Alt+Down and F4
 * open the list instead, where a choice is made (and applied at once).
 */
function browsesChoices({ key, altKey }: KeyboardEvent): boolean {
  return !altKey && (key.length === 1 ? key !== ' ' : /^(Arrow|Home|End|Page)/.test(key));
}

export interface ListSettingsProps {
  /** The list's columns, in order; the first (the record's link) is always shown. */
  columns: readonly { name: string; label: string }[];
  preferences: ListPreferences;
  onChange(preferences: ListPreferences): void;
}

/**
 * Rows per page and the columns shown, folded under "Columns and rows" beside the list's count: chosen once, they
 * apply at once (rows per page once chosen, not while the keyboard browses them) and are remembered for the user
 * (list-preferences.ts).
 */
export function ListSettings({ columns, preferences, onChange }: ListSettingsProps) {
  const sizeId = useId();
  // Rows per page reached by the keyboard's browsing keys, not yet applied. Applied at each step, every arrow
  // reloaded the list and had its count read out (a screen reader cut off the choice being read to say it), and going
  // from 25 to 100 fetched 50 on the way. The choice is applied once made: Enter, or leaving the drop-down (Tab),
  // commits it, Escape takes it back; a choice made in the opened list (a click, or Enter there) is applied at once,
  // as browsers fire `change` then only. Not a separate Apply button: the columns beside it apply at once too, and a
  // pointer's choice needs no second step (WAI's "change on request" is met by the commit a keyboard user makes).
  const [browsedSize, setBrowsedSize] = useState<number | null>(null);
  const browsing = useRef(false);
  const applySize = (size: number | null) => {
    setBrowsedSize(null);
    if (size !== null && size !== preferences.pageSize) onChange({ ...preferences, pageSize: size });
  };
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
          value={browsedSize ?? preferences.pageSize}
          onKeyDown={(event) => {
            browsing.current = browsesChoices(event);
            if (event.key === 'Escape') setBrowsedSize(null);
            else if (event.key === 'Enter' && browsedSize !== null) {
              // Only the commit: Chromium opens the list on Enter as well, and arrows then move in it, not here.
              event.preventDefault();
              applySize(browsedSize);
            }
          }}
          // A pointer's choice is made in the opened list: applied at once, whatever key was pressed before.
          onPointerDown={() => {
            browsing.current = false;
          }}
          onBlur={() => applySize(browsedSize)}
          onChange={(event) => {
            const size = Number(event.target.value);
            if (browsing.current) setBrowsedSize(size);
            else applySize(size);
          }}
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

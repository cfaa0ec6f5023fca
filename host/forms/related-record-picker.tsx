import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { RecordListPayload, RecordPayload, ResourceRecord } from '../../shared';
import { useApi } from '../app/use-api';

export interface RelatedRecordPickerProps {
  /** The input's id, which its label names. */
  id: string;
  /** The label the input has (for its list of choices). */
  label: string;
  name: string;
  /** The related resource, whose records are searched. */
  resource: string;
  /** The chosen record's id; null for none. */
  value: number | null;
  /** Records already at hand (a record page's relations), so that the chosen one is named without a request. */
  known?: readonly ResourceRecord[] | undefined;
  /** What no choice means here: "None" in a form, "Any" in a filter. */
  noneLabel: string;
  required?: boolean | undefined;
  invalid?: boolean | undefined;
  describedBy?: string | undefined;
  onChange(value: number | null): void;
}

/** Records offered at once: enough to choose from, few enough to read; typing narrows them. */
export const PICKER_CHOICES = 10;
/** Typing pauses this long before a search is asked for, so that a word typed is one request, not one per key. */
const SEARCH_DELAY_MS = 200;
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * A choice of one record of another resource, searched by any word (a resource may hold 100,000 records: no
 * drop-down lists them all). A combobox (WAI-ARIA's pattern with a list popup): typing searches, ArrowDown opens the
 * first records by title, Up and Down move, Enter chooses, Escape gives the choice back; leaving an emptied box
 * chooses none. Its text is the chosen record's title, never free text.
 */
export function RelatedRecordPicker(props: RelatedRecordPickerProps) {
  const { id, label, name, resource, value, known, noneLabel, required, invalid, describedBy, onChange } = props;
  const listId = useId();
  const statusId = useId();
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [seen, setSeen] = useState<ReadonlyMap<number, ResourceRecord>>(new Map());
  const query = useDelayed(typed ?? '', SEARCH_DELAY_MS);
  const records = `/api/resources/${encodeURIComponent(resource)}/records`;
  const found = useApi<RecordListPayload>(
    open
      ? HAS_WORD.test(query)
        ? `${records}?search=${encodeURIComponent(query.trim())}&limit=${PICKER_CHOICES}`
        : `${records}?sort=title&limit=${PICKER_CHOICES}`
      : null,
  );
  // Until the search of what was typed is asked for, the choices shown would be those of an older text.
  const settled = query === (typed ?? '');
  const choices = settled && found.status === 'ready' ? found.data.records : [];

  const chosen = value === null ? undefined : (known?.find((record) => record.id === value) ?? seen.get(value));
  // A choice named by id alone (a kept draft, an address): its title is asked for once.
  const named = useApi<RecordPayload>(value !== null && !chosen ? `${records}/${value}` : null);
  const chosenTitle =
    value === null
      ? ''
      : chosen
        ? titleOf(chosen)
        : named.status === 'ready'
          ? titleOf(named.data.record)
          : named.status === 'error' && named.error.status === 404
            ? `#${value} (not found)`
            : `#${value}`;

  const choose = (record: ResourceRecord | null) => {
    if (record) setSeen((current) => new Map(current).set(record.id, record));
    setTyped(null);
    setOpen(false);
    setActive(-1);
    if ((record?.id ?? null) !== value) onChange(record?.id ?? null);
  };

  const leave = () => {
    setOpen(false);
    setActive(-1);
    if (typed === null) return;
    if (typed.trim() === '') return choose(null);
    // A title typed out in full is that record, when the search found exactly one of that title.
    const [same, ...others] = choices.filter((record) => titleOf(record).toLowerCase() === typed.trim().toLowerCase());
    if (same && others.length === 0) return choose(same);
    setTyped(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(-1);
          return;
        }
        if (choices.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + choices.length) % choices.length);
        return;
      }
      case 'Enter':
        // In a form, Enter would submit it with the choice half made.
        if (!open) return;
        event.preventDefault();
        if (active >= 0 && choices[active]) choose(choices[active]);
        return;
      case 'Escape':
        if (!open && typed === null) return;
        // Closes the popup only, not a dialog around the picker.
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
        setTyped(null);
        return;
      default:
    }
  };

  const more = found.status === 'ready' && found.data.page.next !== undefined;
  const status =
    !open || !settled
      ? ''
      : found.status === 'loading'
        ? 'Searching…'
        : found.status === 'error'
          ? `Could not search: ${found.error.message}`
          : choices.length === 0
            ? HAS_WORD.test(query)
              ? `Nothing matches “${query.trim()}”.`
              : 'There is nothing to choose yet.'
            : more
              ? `The first ${choices.length}: type a name to find others.`
              : `${choices.length} to choose from.`;
  const activeId = active >= 0 && choices[active] ? `${listId}-${choices[active].id}` : undefined;

  return (
    <div className="picker">
      <div className="picker__row">
        <input
          id={id}
          name={name}
          className="input"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? activeId : undefined}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={[describedBy, open ? statusId : undefined].filter(Boolean).join(' ') || undefined}
          placeholder={noneLabel}
          value={typed ?? chosenTitle}
          onChange={(event) => {
            setTyped(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
          onBlur={leave}
        />
        {value !== null && (
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={`Clear ${chosenTitle}`}
            onClick={() => choose(null)}
          >
            Clear
          </button>
        )}
      </div>
      <div className="picker__popup" hidden={!open}>
        <ul className="picker__list" id={listId} role="listbox" aria-label={`${label}: choices`}>
          {choices.map((record, index) => (
            <li
              key={record.id}
              id={`${listId}-${record.id}`}
              role="option"
              aria-selected={record.id === value}
              className={index === active ? 'picker__option picker__option--active' : 'picker__option'}
              // Keeps the focus in the box, so that its blur does not close the popup before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(record)}
            >
              {titleOf(record)}
              {record.label && <span className="muted"> · {record.label}</span>}
            </li>
          ))}
        </ul>
        <p className="picker__status" id={statusId} role="status">
          {status}
        </p>
      </div>
    </div>
  );
}

function titleOf(record: ResourceRecord): string {
  return record.title || `#${record.id}`;
}

/** `value` once it has stayed the same for `delayMs`; an emptied value at once. */
function useDelayed(value: string, delayMs: number): string {
  const [delayed, setDelayed] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(timer.current);
    if (value === '') setDelayed('');
    else timer.current = setTimeout(() => setDelayed(value), delayMs);
    return () => clearTimeout(timer.current);
  }, [value, delayMs]);
  return delayed;
}

/**
 * The related-record picker (a combobox searching another resource's records), one component of about 300 lines:
 * its keyboard, its search and its choice depend on each other's state at every key, and are read together.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { RecordListPayload, RecordPayload, ResourceRecord } from '../../shared';
import { useApi } from '../hooks/use-api';

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
 * What a form says when it is sent while a picker holds a name that was typed and not chosen; its input is marked
 * `data-holds-unchosen` as long as it does, focused or not.
 */
export const UNCHOSEN_MESSAGE = 'A name was typed and not chosen: choose it from the list, or empty the box.';

/**
 * Focuses the first picker of `form` that holds a name typed and not chosen (opening its list); whether there was
 * one. A form calls it before it is sent: sending then would save the old choice without a word.
 */
export function focusUnchosenPicker(form: HTMLFormElement | null): boolean {
  const unchosen = form?.querySelector<HTMLInputElement>('input[data-unchosen="true"]');
  unchosen?.focus();
  return Boolean(unchosen);
}

/**
 * A choice of one record of another resource, searched by any word (a resource may hold 100,000 records: no
 * drop-down lists them all). A combobox (WAI-ARIA's pattern with a list popup): typing searches, ArrowDown opens the
 * first records by title, Up and Down move, Enter chooses (the option reached, else the only match of what was typed,
 * or the one of the very title typed; with none of them it does nothing, and the form is not sent while the list is
 * open), Escape gives the choice back, and an emptied box chooses none. Its value is a record, never free text: a name
 * typed and left is chosen once the search finds exactly one record of that title, and otherwise stays marked as
 * not chosen (the form then refuses to be sent, see focusUnchosenPicker) rather than being dropped unseen.
 */
export function RelatedRecordPicker(props: RelatedRecordPickerProps) {
  const { id, label, name, resource, value, known, noneLabel, required, invalid, describedBy, onChange } = props;
  const listId = useId();
  const statusId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(-1);
  const [seen, setSeen] = useState<ReadonlyMap<number, ResourceRecord>>(new Map());
  // The choice before the box was emptied (which chooses none at once): what Escape gives back.
  const before = useRef<number | null | undefined>(undefined);
  const [query, searchNow] = useDelayed(typed ?? '', SEARCH_DELAY_MS);
  // Enter pressed on a name typed before its search answered: the text it was pressed on, chosen from that answer.
  const [enterOn, setEnterOn] = useState<string | null>(null);
  const records = `/api/resources/${encodeURIComponent(resource)}/records`;
  const searching = HAS_WORD.test(query);
  // Also searched with the list closed: a name typed and left is chosen from what the search finds.
  const found = useApi<RecordListPayload>(
    open || (typed !== null && searching)
      ? searching
        ? `${records}?search=${encodeURIComponent(query.trim())}&limit=${PICKER_CHOICES}`
        : `${records}?sort=title&limit=${PICKER_CHOICES}`
      : null,
  );
  // Until the search of what was typed is asked for, the choices shown would be those of an older text.
  const settled = query === (typed ?? '');
  const choices = settled && found.status === 'ready' ? found.data.records : [];
  const typedOut = typed !== null && typed.trim() !== '' ? typed.trim().toLowerCase() : null;
  const [titled, ...alsoTitled] = choices.filter((record) => titleOf(record).toLowerCase() === typedOut);
  const exact = titled && alsoTitled.length === 0 ? titled : undefined;

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
    before.current = undefined;
    setTyped(null);
    setOpen(false);
    setActive(-1);
    if ((record?.id ?? null) !== value) onChange(record?.id ?? null);
  };

  // A name typed and left: chosen as soon as the search finds the one record of that title.
  useEffect(() => {
    if (!focused && exact) choose(exact);
  });

  // Enter on a name whose search had not answered: it acts on the answer, as it would have on a list already there.
  useEffect(() => {
    if (enterOn === null || !settled || found.status === 'loading') return;
    setEnterOn(null);
    if (enterOn !== typed) return;
    const picked = exact ?? (typedOut !== null && choices.length === 1 ? choices[0] : undefined);
    if (picked) choose(picked);
  });

  const type = (text: string) => {
    setTyped(text);
    setEnterOn(null);
    setOpen(true);
    setActive(-1);
    if (text.trim() === '' && value !== null) {
      before.current = value;
      onChange(null);
    }
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
        const down = event.key === 'ArrowDown';
        setActive((current) =>
          current < 0 ? (down ? 0 : choices.length - 1) : (current + (down ? 1 : -1) + choices.length) % choices.length,
        );
        return;
      }
      case 'Enter': {
        // The list closed and no name typed: the box holds the choice made, and Enter is the form's (it sends it).
        if (!open && typedOut === null) return;
        // Otherwise the form is not sent with the choice half made.
        event.preventDefault();
        // The option the arrows reached; with none, the record a search found alone or by its very title. With
        // none of those, Enter leaves the list as it is (WAI-ARIA's combobox pattern): the first records by title,
        // shown before anything is typed, are no match to choose from, even when there is only one.
        const only = typedOut !== null && choices.length === 1 ? choices[0] : undefined;
        const picked = (active >= 0 ? choices[active] : undefined) ?? exact ?? only;
        if (picked) choose(picked);
        else if (typedOut !== null && (!settled || found.status === 'loading')) {
          // Typed a moment ago (the search waits for a pause in typing): searched now, and chosen from its answer,
          // rather than an Enter that did nothing and had to be pressed again once the list came.
          setEnterOn(typed);
          searchNow();
        }
        return;
      }
      case 'Escape':
        if (!open && typed === null) return;
        // Closes the popup only, not a dialog around the picker.
        event.preventDefault();
        event.stopPropagation();
        if (before.current !== undefined && before.current !== value) onChange(before.current);
        before.current = undefined;
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
            ? searching
              ? `Nothing matches “${query.trim()}”.`
              : 'There is nothing to choose yet.'
            : more
              ? `The first ${choices.length}: type a name to find others.`
              : `${choices.length} to choose from.`;
  // A name typed and not chosen, which the form may not be sent with; said (marked invalid) once the box is left.
  const holdsUnchosen = typedOut !== null && !exact;
  const unchosen = !focused && holdsUnchosen;
  const activeId = active >= 0 && choices[active] ? `${listId}-${choices[active].id}` : undefined;
  // The option the arrows reached stays in sight in a popup that scrolls (ArrowUp from the top wraps to the last).
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);
  // A popup opened near the bottom of a small screen is brought into sight once it has its choices.
  useEffect(() => {
    if (open) popup.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open, choices.length]);

  return (
    <div className="picker">
      <div className="picker__row">
        <input
          ref={input}
          id={id}
          name={name}
          className="input"
          role="combobox"
          // A title searched for, in its own direction (see FieldControl).
          dir="auto"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? activeId : undefined}
          aria-required={required || undefined}
          aria-invalid={invalid || unchosen || undefined}
          aria-describedby={
            [describedBy, unchosen ? hintId : undefined, open ? statusId : undefined].filter(Boolean).join(' ') ||
            undefined
          }
          data-unchosen={unchosen || undefined}
          data-holds-unchosen={holdsUnchosen || undefined}
          placeholder={noneLabel}
          value={typed ?? chosenTitle}
          onChange={(event) => type(event.target.value)}
          onClick={() => setOpen(true)}
          onFocus={() => {
            setFocused(true);
            // Back to a name left unchosen (the form sent it here): its list again.
            if (typedOut !== null) setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setFocused(false);
            setOpen(false);
            setActive(-1);
            if (typedOut === null) setTyped(null);
          }}
        />
        {value !== null && (
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={`Clear ${chosenTitle}`}
            onClick={() => {
              choose(null);
              // The button goes with the choice: the focus stays in the box rather than falling to the page.
              input.current?.focus();
            }}
          >
            Clear
          </button>
        )}
      </div>
      {unchosen && (
        <p className="field__error" id={hintId}>
          “{typed?.trim()}” is not chosen: {found.status === 'loading' || !settled ? 'searching… ' : ''}choose it from
          the list, or empty the box.
        </p>
      )}
      {/* A press in the popup (an option, its scroll bar) keeps the focus in the box, which would otherwise close it. */}
      <div ref={popup} className="picker__popup" hidden={!open} onMouseDown={(event) => event.preventDefault()}>
        <ul className="picker__list" id={listId} role="listbox" aria-label={`${label}: choices`}>
          {choices.map((record, index) => (
            <li
              key={record.id}
              id={`${listId}-${record.id}`}
              role="option"
              // The option the arrows reached is the selected one (WAI-ARIA's combobox pattern: the one named by
              // aria-activedescendant); before they reach one, the record chosen now.
              aria-selected={active >= 0 ? index === active : record.id === value}
              className={[
                'picker__option',
                index === active && 'picker__option--active',
                record.id === value && 'picker__option--chosen',
              ]
                .filter(Boolean)
                .join(' ')}
              onClick={() => choose(record)}
            >
              <bdi>{titleOf(record)}</bdi>
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

/** `value` once it has stayed the same for `delayMs`, or at once when asked (`now`); an emptied value at once. */
function useDelayed(value: string, delayMs: number): [delayed: string, now: () => void] {
  const [delayed, setDelayed] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(timer.current);
    if (value === '') setDelayed('');
    else timer.current = setTimeout(() => setDelayed(value), delayMs);
    return () => clearTimeout(timer.current);
  }, [value, delayMs]);
  const now = () => {
    clearTimeout(timer.current);
    setDelayed(value);
  };
  return [delayed, now];
}

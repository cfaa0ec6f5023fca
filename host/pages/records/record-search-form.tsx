import { useId, useRef, useState, type FormEvent } from 'react';

/** A letter or digit: a word search needs one, as the server's words are runs of them (record-words.ts). */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

export const NO_WORD_MESSAGE = 'Type at least one word: letters or digits.';

/**
 * How a list's search matches, named by its parameter in the address: `search`, any word of any text column (listed
 * by id); `q`, the start of the sorted column (in that column's order).
 */
export type RecordSearchKind = 'search' | 'q';

/** The search a list applies now: its kind, and the text ('' for none). */
export interface AppliedRecordSearch {
  kind: RecordSearchKind;
  text: string;
}

export interface RecordSearchFormProps {
  /** The resource's label, for the box's name ("Search authors"). */
  resourceLabel: string;
  /** The label of the column a prefix search matches (the column sorted by); null when no column can be searched. */
  prefixColumnLabel: string | null;
  /** The search applied now. */
  applied: AppliedRecordSearch;
  maxLength: number;
  /** Applies a search of that kind ('' clears it); the list drops the other kind's. */
  onSearch(kind: RecordSearchKind, text: string): void;
}

/**
 * The one search of a list: a box, and what it matches (any word, or the start of the sorted column) chosen beside
 * it and said under it, as the server matches it. One box rather than one per kind: staff type where they look, and
 * the two never apply together. The box follows the search applied (Back, a reload) without being replaced, so it
 * keeps the focus while results come.
 */
export function RecordSearchForm({
  resourceLabel,
  prefixColumnLabel,
  applied,
  maxLength,
  onSearch,
}: RecordSearchFormProps) {
  const what = resourceLabel.toLowerCase();
  const column = prefixColumnLabel?.toLowerCase() ?? null;
  const [text, setText] = useState(applied.text);
  const [kind, setKind] = useState(applied.kind);
  const appliedKey = `${applied.kind}:${applied.text}`;
  const [shownFor, setShownFor] = useState(appliedKey);
  if (shownFor !== appliedKey) {
    setShownFor(appliedKey);
    setText(applied.text);
    // A search cleared leaves the choice made; one applied (Back, a link) shows its own kind.
    if (applied.text) setKind(applied.kind);
  }
  const shownKind = column === null ? 'search' : kind;
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  // A word search of no word (only signs) would be refused by the server: said here, the list stays as it is.
  const [noWord, setNoWord] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = text.trim();
    if (shownKind === 'search' && search !== '' && !WORD_CHARACTER.test(search)) {
      setNoWord(true);
      input.current?.focus();
      return;
    }
    setNoWord(false);
    onSearch(shownKind, search);
  };
  const hint =
    shownKind === 'search'
      ? `Every word you type, or a word starting so (“note” finds “Notes”), in any text; capitals and accents ignored.`
      : `Finds the ${what} whose ${column} starts with what you type (“eclair” finds “Éclair”); sort by another column to search it.`;
  return (
    <form role="search" aria-label={`Search ${what}`} className="list-search" onSubmit={submit}>
      <label htmlFor={inputId} className="field__label">
        Search {what}
      </label>
      <div className="list-search__row">
        <input
          ref={input}
          id={inputId}
          className="input"
          type="search"
          name={shownKind}
          value={text}
          maxLength={maxLength}
          aria-describedby={noWord ? `${errorId} ${hintId}` : hintId}
          aria-invalid={noWord || undefined}
          onChange={(event) => {
            setText(event.target.value);
            setNoWord(false);
          }}
        />
        {column !== null && (
          <select
            aria-label="Match"
            className="input list-search__kind"
            value={shownKind}
            onChange={(event) => {
              setKind(event.target.value as RecordSearchKind);
              setNoWord(false);
            }}
          >
            <option value="search">Any word</option>
            <option value="q">{prefixColumnLabel} starts with</option>
          </select>
        )}
        <button type="submit" className="button button--secondary">
          Search
        </button>
        {applied.text && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              // The button goes with the search: the focus goes back to the box rather than to the page.
              input.current?.focus();
              onSearch(applied.kind, '');
            }}
          >
            Clear search
          </button>
        )}
      </div>
      {noWord && (
        <p id={errorId} className="field__error" role="alert">
          {NO_WORD_MESSAGE}
        </p>
      )}
      <p id={hintId} className="field__help">
        {hint}
      </p>
    </form>
  );
}

import { useId, useRef, useState, type FormEvent } from 'react';

/** A letter or digit: a word search needs one, as the server's words are runs of them (record-words.ts). */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

export const NO_WORD_MESSAGE = 'Type at least one word: letters or digits.';

export interface RecordSearchFormProps {
  /** The resource's label, for the form's name ("Search authors"). */
  resourceLabel: string;
  /** The label of the column a search matches (the column sorted by). */
  columnLabel: string;
  /**
   * `prefix` (the default): the start of the sorted column, `q=`. `words`: any word anywhere, `search=`; the form is
   * then named "Find authors by word".
   */
  kind?: 'prefix' | 'words';
  /** The search applied now. */
  applied: string;
  maxLength: number;
  onSearch(q: string): void;
}

/**
 * The search of a list: what it matches is said next to the box (the start of one column, letters in any case), as
 * the server matches it. The box follows the search applied (Back, a reload) without being replaced, so it keeps
 * the focus while results come.
 */
export function RecordSearchForm({
  resourceLabel,
  columnLabel,
  kind = 'prefix',
  applied,
  maxLength,
  onSearch,
}: RecordSearchFormProps) {
  const what = resourceLabel.toLowerCase();
  const texts =
    kind === 'words'
      ? {
          form: `Find ${what} by word`,
          label: 'Find by any word',
          hint: `Finds the ${what} having every word you type in any of their texts, a word matching the start of theirs (“note” finds “Notes”); capitals and accents or not. Found ${what} are listed oldest or newest first: clear this search to sort by a column.`,
        }
      : {
          form: `Search ${what}`,
          label: `Search by ${columnLabel.toLowerCase()}`,
          hint: `Finds the ${what} whose ${columnLabel.toLowerCase()} starts with what you type, capitals and accents or not (“eclair” finds “Éclair”). Sort by another column to search that one.`,
        };
  const [text, setText] = useState(applied);
  const [shownFor, setShownFor] = useState(applied);
  if (shownFor !== applied) {
    setShownFor(applied);
    setText(applied);
  }
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  // A word search of no word (only signs) would be refused by the server: said here, the list stays as it is.
  const [noWord, setNoWord] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = text.trim();
    if (kind === 'words' && search !== '' && !WORD_CHARACTER.test(search)) {
      setNoWord(true);
      input.current?.focus();
      return;
    }
    setNoWord(false);
    onSearch(search);
  };
  return (
    <form role="search" aria-label={texts.form} className="list-search" onSubmit={submit}>
      <label htmlFor={inputId} className="field__label">
        {texts.label}
      </label>
      <div className="list-search__row">
        <input
          ref={input}
          id={inputId}
          className="input"
          type="search"
          name={kind === 'words' ? 'search' : 'q'}
          value={text}
          maxLength={maxLength}
          aria-describedby={noWord ? `${errorId} ${hintId}` : hintId}
          aria-invalid={noWord || undefined}
          onChange={(event) => {
            setText(event.target.value);
            setNoWord(false);
          }}
        />
        <button type="submit" className="button button--secondary">
          Search
        </button>
        {applied && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              // The button goes with the search: the focus goes back to the box rather than to the page.
              input.current?.focus();
              onSearch('');
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
        {texts.hint}
      </p>
    </form>
  );
}

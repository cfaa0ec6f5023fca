import { Fragment, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { dayRangeEnds, formatDayRange, type RecordFilterDefinition } from '../../../shared';
import { focusUnchosenPicker, RelatedRecordPicker } from '../../forms/related-record-picker';

export interface RecordFiltersFormProps {
  resourceLabel: string;
  filters: readonly RecordFilterDefinition[];
  /** The filters applied now, by name. */
  applied: Readonly<Record<string, string>>;
  onApply(filters: Record<string, string>): void;
}

/**
 * The list's filters, one drop-down each (two day pickers for a range of days, a search of the related records for
 * a relation), applied together with a button (a drop-down that applied itself would reload the list at every arrow
 * key). Follows the filters applied (Back, a reload).
 */
export function RecordFiltersForm({ resourceLabel, filters, applied, onApply }: RecordFiltersFormProps) {
  const formId = useId();
  const applyButton = useRef<HTMLButtonElement>(null);
  const [chosen, setChosen] = useState<Record<string, string>>({ ...applied });
  const [shownFor, setShownFor] = useState(applied);
  if (shownFor !== applied && JSON.stringify(shownFor) !== JSON.stringify(applied)) {
    setShownFor(applied);
    setChosen({ ...applied });
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A name typed in a relation filter and not chosen: applying now would drop it unseen.
    if (focusUnchosenPicker(event.currentTarget)) return;
    onApply(Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== '')));
  };
  if (filters.length === 0) return null;
  const anyApplied = Object.keys(applied).length > 0;
  // Chosen and not applied (the list still shows the applied filters, paging included): said beside the button.
  const pending = filtersKey(chosen) !== filtersKey(applied);
  return (
    <form className="list-filters" aria-label={`Filter ${resourceLabel.toLowerCase()}`} onSubmit={submit}>
      {filters.map((filter) => {
        // The key given apart: React warns of a key spread into JSX with the other props.
        const props = {
          filter,
          value: chosen[filter.name] ?? '',
          onChange: (value: string) => setChosen((current) => ({ ...current, [filter.name]: value })),
        };
        return filter.kind === 'dateRange' ? (
          <DayRangeChoice key={filter.name} {...props} />
        ) : filter.kind === 'relation' ? (
          <RelationChoice key={filter.name} {...props} />
        ) : (
          <FilterChoice key={filter.name} {...props} />
        );
      })}
      <div className="list-filters__actions">
        <button
          ref={applyButton}
          type="submit"
          className="button button--secondary"
          aria-describedby={pending ? `${formId}-pending` : undefined}
        >
          Apply filters
        </button>
        {anyApplied && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              // The button goes with the filters: the focus stays beside it rather than falling to the page's heading.
              applyButton.current?.focus();
              setChosen({});
              onApply({});
            }}
          >
            Clear filters
          </button>
        )}
        {pending && (
          <p id={`${formId}-pending`} className="list-filters__pending" data-filters-pending="">
            Not applied yet: the list shows {anyApplied ? 'the filters applied before' : 'every record'}.
          </p>
        )}
      </div>
    </form>
  );
}

interface FilterChoiceProps {
  filter: RecordFilterDefinition;
  /** As in the address: an option, `true`, an id, or `FROM..TO` for a range of days; '' for any. */
  value: string;
  onChange(value: string): void;
}

/**
 * A range of days: From and To, the browser's own day pickers (keyboard included), grouped under the filter's
 * label. Either may stay empty, leaving that side open. Each bounds the other, so the browser refuses to apply a
 * range that ends before it starts (the server would refuse it too).
 */
function DayRangeChoice({ filter, value, onChange }: FilterChoiceProps) {
  const id = useId();
  const range = dayRangeEnds(value);
  const ends = [
    { end: 'from', label: 'From', bound: { max: range.to || undefined } },
    { end: 'to', label: 'To', bound: { min: range.from || undefined } },
  ] as const;
  return (
    <fieldset className="list-filters__field list-filters__days">
      <legend className="field__label">{filter.label}</legend>
      <div className="list-filters__day-inputs">
        {ends.map(({ end, label, bound }) => (
          <Fragment key={end}>
            <label htmlFor={`${id}-${end}`}>{label}</label>
            <input
              {...bound}
              id={`${id}-${end}`}
              type="date"
              className="input"
              name={`filter.${filter.name}.${end}`}
              value={range[end]}
              onChange={(event) => onChange(formatDayRange({ ...range, [end]: event.target.value }))}
            />
          </Fragment>
        ))}
      </div>
    </fieldset>
  );
}

/** A relation: one record of the related resource, searched by name (there may be far too many to list). */
function RelationChoice({ filter, value, onChange }: FilterChoiceProps) {
  const id = useId();
  const chosen = /^[1-9]\d*$/.test(value) ? Number(value) : null;
  return (
    <LabelledFilter id={id} label={filter.label}>
      <RelatedRecordPicker
        id={id}
        label={filter.label}
        name={`filter.${filter.name}`}
        resource={filter.resource ?? ''}
        value={chosen}
        noneLabel="Any"
        onChange={(record) => onChange(record === null ? '' : String(record))}
      />
    </LabelledFilter>
  );
}

/** A select or checkbox filter: a drop-down of its options, or of ticked and not ticked. */
function FilterChoice({ filter, value, onChange }: FilterChoiceProps) {
  const id = useId();
  const choices: Array<{ value: string; label: string }> =
    filter.kind === 'checkbox'
      ? [
          { value: 'true', label: 'Ticked' },
          { value: 'false', label: 'Not ticked' },
        ]
      : (filter.options ?? []).map((option) => ({ value: option, label: option }));
  return (
    <LabelledFilter id={id} label={filter.label}>
      <select
        id={id}
        className="input"
        name={`filter.${filter.name}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Any</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </LabelledFilter>
  );
}

/** One filter's control under its label. */
function LabelledFilter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="list-filters__field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children}
    </div>
  );
}

/** Filters compared by what they apply: an empty choice is no filter, and their order does not matter. */
function filtersKey(filters: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.entries(filters)
      .filter(([, value]) => value !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

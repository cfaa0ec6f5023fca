import { useState } from 'react';
import type { FieldItem } from '../../shared';
import { fieldControlId } from './field-control';

/** The line above the list of fields a save was refused for. */
export function fieldErrorsMessage(count: number): string {
  return count === 1 ? '1 field needs attention:' : `${count} fields need attention:`;
}

export interface FieldErrorSummaryProps {
  /** The form's fields in order: the summary lists the errors in the order the fields appear. */
  fields: readonly FieldItem[];
  /** Field name -> the server's message; fixed fields drop out as the user edits them. */
  errors: Readonly<Record<string, string>>;
}

/**
 * Names every field a save was refused for, with its message, each a link to the field: announced at once (an
 * alert), and usable to get back to a field after Tab has moved on. Nothing once every field is fixed. Said once, as
 * the save is refused (the form mounts it anew for each refusal): a field fixed drops out of the list silently. Read
 * out again at the first letter typed into the field being fixed, the alert cut into the typing's echo as if the
 * typing had gone wrong.
 */
export function FieldErrorSummary({ fields, errors }: FieldErrorSummaryProps) {
  const invalid = fields.filter((field) => errors[field.name] !== undefined);
  const names = invalid.map((field) => field.name).join('\n');
  const [refused] = useState(names);
  if (invalid.length === 0) return null;
  return (
    // Still an alert to someone reading the page; no longer a live one once it differs from what was said.
    <div className="form-error error-summary" role="alert" aria-live={names === refused ? undefined : 'off'}>
      <p>{fieldErrorsMessage(invalid.length)}</p>
      <ul className="error-summary__list">
        {invalid.map((field) => (
          <li key={field.name}>
            <a
              href={`#${fieldControlId(field.name)}`}
              onClick={(event) => {
                // Focus the field without a hash in the address (which would be a history entry to go back through).
                event.preventDefault();
                document.getElementById(fieldControlId(field.name))?.focus();
              }}
            >
              {field.label}: {errors[field.name]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

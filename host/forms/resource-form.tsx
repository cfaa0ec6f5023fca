import { useCallback, useMemo, useState, type FormEvent } from 'react';
import type {
  FieldItem,
  FormContext,
  JsonValue,
  RecordPayload,
  RecordUpdateRequest,
  ResourceDefinition,
  ResourceRecord,
} from '../../shared';
import { ApiError, FormSlotItem, useApiClient, useSession } from '../core';
import { FieldControl } from './field-control';

export interface ResourceFormProps {
  definition: ResourceDefinition;
  record: ResourceRecord;
  onSaved?(payload: RecordPayload): void;
}

function initialValues(fields: readonly FieldItem[], record: ResourceRecord): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const field of fields) {
    const value = record[field.name];
    values[field.name] = value === undefined ? (field.input === 'checkbox' ? false : '') : value;
  }
  return values;
}

type Status = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/**
 * The record form: the resource's items in order, an ordinary field or a slot item (through the global registry,
 * with `resource`, `formContext` and its props). Saving PUTs the field values and shows the server's `error.fields`.
 */
export function ResourceForm({ definition, record, onSaved }: ResourceFormProps) {
  const client = useApiClient();
  const { expire } = useSession();
  const fields = useMemo(
    () => definition.fields.filter((item): item is FieldItem => item.type === 'field'),
    [definition.fields],
  );
  const [values, setValues] = useState(() => initialValues(fields, record));
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const setValue = useCallback((name: string, value: JsonValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
    setStatus((current) => (current.kind === 'saved' ? { kind: 'idle' } : current));
  }, []);

  const formContext = useMemo<FormContext>(
    () => ({ mode: 'edit', values, errors, setValue }),
    [values, errors, setValue],
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus({ kind: 'saving' });
    const body: RecordUpdateRequest = {};
    for (const field of fields) body[field.name] = values[field.name] ?? null;
    try {
      const payload = await client.put<RecordPayload>(
        `/api/resources/${encodeURIComponent(definition.name)}/records/${record.id}`,
        body,
      );
      setErrors({});
      setValues(initialValues(fields, payload.record));
      setStatus({ kind: 'saved' });
      onSaved?.(payload);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) expire();
      const fieldErrors = error instanceof ApiError ? error.fields : {};
      setErrors(fieldErrors);
      const message =
        error instanceof ApiError
          ? Object.keys(fieldErrors).length > 0
            ? 'Some fields need attention.'
            : error.message
          : 'Could not save.';
      setStatus({ kind: 'failed', message });
    }
  };

  return (
    <form
      className="card form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-resource-form={definition.name}
    >
      {definition.fields.map((item, index) =>
        item.type === 'field' ? (
          <FieldControl
            key={`field:${item.name}`}
            field={item}
            value={values[item.name]}
            error={errors[item.name]}
            onChange={(value) => setValue(item.name, value)}
          />
        ) : (
          <FormSlotItem
            key={`slot:${index}:${item.component}`}
            item={item}
            resource={definition.name}
            formContext={formContext}
          />
        ),
      )}
      <div className="form__footer">
        <button type="submit" className="button button--primary" disabled={status.kind === 'saving'}>
          {status.kind === 'saving' ? 'Saving…' : 'Save'}
        </button>
        <p className="form__status" role="status">
          {status.kind === 'saved' && 'Saved.'}
        </p>
        {status.kind === 'failed' && (
          <p className="form-error" role="alert">
            {status.message}
          </p>
        )}
      </div>
    </form>
  );
}

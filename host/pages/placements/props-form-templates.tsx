import { getTemplate, getUiOptions, type FieldTemplateProps, type RJSFSchema, type TitleFieldProps } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { humanName } from './prop-words';

/** What the props form tells its templates: the entry its props are of (placement-props-form.tsx). */
export interface PropsFormContext {
  owner?: ReactNode;
}

/** ` — WelcomeCard (team_marketing) #1` after a label, heard and not seen: the name is unique on the page. */
function Owner({ context }: { context: unknown }) {
  const owner = (context as PropsFormContext | undefined)?.owner;
  return owner === undefined ? null : <span className="visually-hidden"> — {owner}</span>;
}

/** A field's label: its schema's `title`, else its prop name in words (`linkLabel` -> `Link label`). */
function labelOf(label: string, schema: RJSFSchema): string {
  return typeof schema.title === 'string' && schema.title.trim() !== '' ? schema.title : humanName(label);
}

/** Said in words, not marked with an asterisk that a screen reader reads as "star" and a newcomer may not know. */
function Required() {
  return <span className="props-form__required"> (required)</span>;
}

/**
 * The props form's field: react-jsonschema-form's own (core's FieldTemplate), but labelled by the schema's title or
 * the prop's name in words, with "(required)" where it wrote `title*`.
 */
export function PropsFieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, registry, uiSchema } = props;
  const uiOptions = getUiOptions(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, uiOptions);
  if (hidden) return <div className="hidden">{children}</div>;
  const isCheckbox = uiOptions.widget === 'checkbox';
  return (
    <WrapIfAdditionalTemplate {...props}>
      {displayLabel && !isCheckbox && label && (
        <label className="control-label" htmlFor={id}>
          {labelOf(label, props.schema as RJSFSchema)}
          {required && <Required />}
          <Owner context={registry.formContext} />
        </label>
      )}
      {displayLabel && description ? description : null}
      {children}
      {errors}
      {help}
    </WrapIfAdditionalTemplate>
  );
}

/** The title of a group of props (an object, a list): as a field's, in words, "(required)" for core's asterisk. */
export function PropsTitleFieldTemplate({
  id,
  title,
  required,
  schema,
  optionalDataControl,
  registry,
}: TitleFieldProps) {
  return (
    <legend id={id}>
      {labelOf(title, schema as RJSFSchema)}
      {required && <Required />}
      <Owner context={registry.formContext} />
      {optionalDataControl && <span className="pull-right">{optionalDataControl}</span>}
    </legend>
  );
}

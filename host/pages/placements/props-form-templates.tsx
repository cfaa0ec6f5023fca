import { getTemplate, getUiOptions, type FieldTemplateProps, type RJSFSchema, type TitleFieldProps } from '@rjsf/utils';
import { humanName } from './prop-words';

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
export function PropsTitleFieldTemplate({ id, title, required, schema, optionalDataControl }: TitleFieldProps) {
  return (
    <legend id={id}>
      {labelOf(title, schema as RJSFSchema)}
      {required && <Required />}
      {optionalDataControl && <span className="pull-right">{optionalDataControl}</span>}
    </legend>
  );
}

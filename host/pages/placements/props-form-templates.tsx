import {
  buttonId,
  canExpand,
  descriptionId,
  errorId,
  getTemplate,
  helpId,
  getUiOptions,
  titleId,
  TranslatableString,
  type ArrayFieldItemButtonsTemplateProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type RJSFSchema,
  type TitleFieldProps,
} from '@rjsf/utils';
import { useEffect, type ReactNode } from 'react';
import { humanName } from './prop-words';

/** What the props form tells its templates: the entry its props are of (placement-props-form.tsx). */
export interface PropsFormContext {
  owner?: ReactNode;
  /**
   * The draft check's words per field id, said at that field in place of the form's own errors there: the same
   * problem in two wordings was read as two problems.
   */
  checkedErrors?: Readonly<Record<string, readonly string[]>>;
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
  const { rawErrors, rawHelp, rawDescription } = props;
  const uiOptions = getUiOptions(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, uiOptions);
  // The library's widgets describe their error but never mark themselves invalid: done here, for every widget alike
  // (an input, a select, a text area), whether the error is the form's own check or the server's (extraErrors).
  const invalid = (rawErrors?.length ?? 0) > 0;
  useEffect(() => {
    const control = document.getElementById(id);
    if (invalid) control?.setAttribute('aria-invalid', 'true');
    else control?.removeAttribute('aria-invalid');
  }, [id, invalid]);
  const checked = (registry.formContext as PropsFormContext | undefined)?.checkedErrors?.[id];
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
      {checked ? <CheckedErrors id={id} messages={checked} /> : errors}
      {help}
      {/* The widget's aria-describedby names its error, description and help whether or not they are shown: an
          absent one would be an id pointing nowhere, which screen-reader checks refuse. Empty, they say nothing. */}
      {!rawErrors?.length && !checked && <span id={errorId(id)} hidden />}
      {!(displayLabel && rawDescription) && <span id={descriptionId(id)} hidden />}
      {!rawHelp && <span id={helpId(id)} hidden />}
    </WrapIfAdditionalTemplate>
  );
}

/** The draft check's problems of a field, as the library's FieldErrorTemplate shows the form's own (same id). */
function CheckedErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  return (
    <div>
      <ul id={errorId(id)} className="error-detail bs-callout bs-callout-info">
        {messages.map((message) => (
          <li key={message} className="text-danger">
            {message}
          </li>
        ))}
      </ul>
    </div>
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

/**
 * A list item's buttons, as core's, each named with its item (`Remove item 2 of 3`): core's are named by their title
 * alone, so a list of three gave three "Remove" buttons a screen reader could not tell apart. The list's own label is
 * its group's (PropsTitleFieldTemplate).
 */
export function PropsArrayItemButtons(props: ArrayFieldItemButtonsTemplateProps) {
  const { disabled, readonly, hasCopy, hasMoveDown, hasMoveUp, hasRemove, fieldPathId, index, totalItems } = props;
  const { registry, uiSchema } = props;
  const { CopyButton, MoveDownButton, MoveUpButton, RemoveButton } = registry.templates.ButtonTemplates;
  const moves = hasMoveUp || hasMoveDown;
  const off = disabled || readonly;
  // In core's order: shown, the button, its id's and class's name, its title, disabled, what it does.
  const buttons = [
    [moves, MoveUpButton, 'moveUp', 'move-up', TranslatableString.MoveUpButton, off || !hasMoveUp, props.onMoveUpItem],
    [
      moves,
      MoveDownButton,
      'moveDown',
      'move-down',
      TranslatableString.MoveDownButton,
      off || !hasMoveDown,
      props.onMoveDownItem,
    ],
    [hasCopy, CopyButton, 'copy', 'copy', TranslatableString.CopyButton, off, props.onCopyItem],
    [hasRemove, RemoveButton, 'remove', 'remove', TranslatableString.RemoveButton, off, props.onRemoveItem],
  ] as const;
  return (
    <>
      {buttons.map(
        ([shown, Button, id, className, title, isDisabled, onClick]) =>
          shown && (
            <Button
              key={id}
              id={buttonId(fieldPathId, id)}
              className={`rjsf-array-item-${className}`}
              aria-label={`${registry.translateString(title)} item ${index + 1} of ${totalItems}`}
              disabled={isDisabled}
              onClick={onClick}
              uiSchema={uiSchema}
              registry={registry}
            />
          ),
      )}
    </>
  );
}

/**
 * The fields of an object, as core's ObjectFieldTemplate lays them out, but a group only when it has a title (a prop
 * holding an object, its legend its name): the props themselves, untitled, are in a box with no role, where core's
 * nameless fieldset made a screen reader announce a group with no name before the first prop (the props already
 * are under the card's "Props of …").
 */
export function PropsObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { className, description, disabled, formData, fieldPathId, onAddProperty, optionalDataControl } = props;
  const { properties, readonly, registry, required, schema, title, uiSchema } = props;
  const options = getUiOptions(uiSchema);
  const TitleFieldTemplate = getTemplate('TitleFieldTemplate', registry, options);
  const DescriptionFieldTemplate = getTemplate('DescriptionFieldTemplate', registry, options);
  // A choice of shapes without properties of its own: core renders no box, the choice renders its fields.
  if ((schema.oneOf || schema.anyOf) && !schema.properties && properties.length === 0) return null;
  const inTitle = !readonly && !disabled;
  const { AddButton } = registry.templates.ButtonTemplates;
  return (
    <fieldset className={className} id={fieldPathId.$id} role={title ? undefined : 'none'}>
      {title && (
        <TitleFieldTemplate
          id={titleId(fieldPathId)}
          title={title}
          required={required}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
          optionalDataControl={inTitle ? optionalDataControl : undefined}
        />
      )}
      {description && (
        <DescriptionFieldTemplate
          id={descriptionId(fieldPathId)}
          description={description}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
      {!inTitle && optionalDataControl}
      {properties.map((property) => property.content)}
      {canExpand(schema, uiSchema, formData) && (
        <AddButton
          id={buttonId(fieldPathId, 'add')}
          className="rjsf-object-property-expand"
          onClick={onAddProperty}
          disabled={disabled || readonly}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
    </fieldset>
  );
}

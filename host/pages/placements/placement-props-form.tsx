// The component alone: the package's index also exports its test registry, which imports the ajv validator.
import Form from '@rjsf/core/lib/components/Form.js';
import type { ErrorSchema, Experimental_DefaultFormStateBehavior, RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMemo, type ReactNode } from 'react';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { fieldId, pathSteps, problemInWords } from './prop-words';
import { propsFormSchema } from './props-form-schema';
import {
  PropsArrayItemButtons,
  PropsFieldTemplate,
  PropsObjectFieldTemplate,
  PropsTitleFieldTemplate,
  type PropsFormContext,
} from './props-form-templates';
import { PropsSelectWidget } from './props-form-select-widget';
import { PropsTextWidget } from './props-form-text-widget';
import { schemaFormValidator } from './schema-form-validator';

export interface PlacementPropsFormProps {
  /** The component's props schema, as its remote declares it. */
  schema: JsonSchema;
  props: JsonValue;
  /** Unique on the page: the ids of the form's fields start with it. */
  idPrefix: string;
  /**
   * The entry the props are of, as the page names it (unique): said after each field's label, out of sight, so that
   * two slots' "Title" boxes are not two controls of one name to a screen reader.
   */
  owner?: ReactNode;
  /**
   * The draft check's problems of these props (those with a path into them), each said at its field as the form's
   * own check says its errors: the field marked invalid, its message tied to it.
   */
  problems?: readonly PlacementProblem[];
  onChange(props: JsonValue): void;
}

/** The form's own button is not wanted: the props are part of the draft, saved with it. */
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/**
 * Labels in words with "(required)" rather than `title*`, list buttons named with their item, no nameless group around
 * the props (props-form-templates.tsx).
 */
const TEMPLATES = {
  FieldTemplate: PropsFieldTemplate,
  ObjectFieldTemplate: PropsObjectFieldTemplate,
  TitleFieldTemplate: PropsTitleFieldTemplate,
  ArrayFieldItemButtonsTemplate: PropsArrayItemButtons,
};

/**
 * A number prop holding no number shows what it holds (props-form-text-widget.tsx); a choice not made yet says
 * "Choose…" (props-form-select-widget.tsx).
 */
const WIDGETS = { TextWidget: PropsTextWidget, SelectWidget: PropsSelectWidget };

/**
 * A choice of constants (`anyOf: [{ const: 'info' }, …]`) starts unchosen: the library would otherwise fill a
 * required prop with its first value, saved with the draft without the operator having picked it.
 */
const DEFAULTS: Experimental_DefaultFormStateBehavior = { constAsDefaults: 'never' };

/**
 * A slot's props as a form generated from its component's JSON Schema (react-jsonschema-form), checked as the
 * operator types (schema-form-validator.ts) (the server checks them again when the draft is saved and published). A chunk of its own, loaded
 * by the placements page only: the library is larger than every other tool page together.
 */
export default function PlacementPropsForm({
  schema,
  props,
  idPrefix,
  owner,
  problems = [],
  onChange,
}: PlacementPropsFormProps) {
  // Choices declared without a type get their values' (props-form-schema.ts): the form has a field for them.
  const formSchema = useMemo(() => propsFormSchema(schema), [schema]);
  const extraErrors = useMemo(() => errorsAtFields(problems, schema), [problems, schema]);
  // A field the draft check's problem is said at does not say the form's own error too: one problem, in two wordings
  // ("Limit must be >= 1, got 0" and "Limit is not valid: 0 is less than 1."), read as two. Filtered where shown:
  // the form keeps the errors of its last check in its state and merges the new extraErrors with them.
  const formContext: PropsFormContext = useMemo(
    () => ({ owner, checkedErrors: checkedErrorsAt(idPrefix, problems, schema) }),
    [owner, idPrefix, problems, schema],
  );
  return (
    <Form
      schema={formSchema as RJSFSchema}
      uiSchema={UI_SCHEMA}
      templates={TEMPLATES}
      widgets={WIDGETS}
      experimental_defaultFormStateBehavior={DEFAULTS}
      formData={props}
      validator={schemaFormValidator}
      idPrefix={idPrefix}
      formContext={formContext}
      extraErrors={extraErrors}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      onChange={(event) => onChange((event.formData ?? {}) as JsonValue)}
    />
  );
}

/** The problems with a path into the props, as the form's error schema: `props.links[0].href` at links > 0 > href. */
function errorsAtFields(problems: readonly PlacementProblem[], schema: JsonSchema): ErrorSchema | undefined {
  let errors: Record<string, unknown> | undefined;
  for (const problem of problems) {
    const steps = problem.path === null ? null : pathSteps(problem.path);
    if (steps === null || steps.length === 0) continue;
    errors ??= {};
    let at = errors;
    for (const step of steps) {
      const key = String(step);
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at.__errors = [...((at.__errors as string[] | undefined) ?? []), problemInWords(problem, schema)];
  }
  return errors as ErrorSchema | undefined;
}

/** The draft check's words per field id of the form (`<idPrefix>_limit`): said there in place of the form's own. */
function checkedErrorsAt(
  idPrefix: string,
  problems: readonly PlacementProblem[],
  schema: JsonSchema,
): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const problem of problems) {
    const id = fieldId(idPrefix, problem);
    if (id !== null) byField[id] = [...(byField[id] ?? []), problemInWords(problem, schema)];
  }
  return byField;
}

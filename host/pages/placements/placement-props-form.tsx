// The component alone: the package's index also exports its test registry, which imports the ajv validator.
import Form from '@rjsf/core/lib/components/Form.js';
import type { Experimental_DefaultFormStateBehavior, RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMemo, type ReactNode } from 'react';
import type { JsonSchema, JsonValue } from '../../../shared';
import { propsFormSchema } from './props-form-schema';
import {
  PropsArrayItemButtons,
  PropsFieldTemplate,
  PropsTitleFieldTemplate,
  type PropsFormContext,
} from './props-form-templates';
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
  onChange(props: JsonValue): void;
}

/** The form's own button is not wanted: the props are part of the draft, saved with it. */
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/** Labels in words with "(required)" rather than `title*`, list buttons named with their item (props-form-templates.tsx). */
const TEMPLATES = {
  FieldTemplate: PropsFieldTemplate,
  TitleFieldTemplate: PropsTitleFieldTemplate,
  ArrayFieldItemButtonsTemplate: PropsArrayItemButtons,
};

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
export default function PlacementPropsForm({ schema, props, idPrefix, owner, onChange }: PlacementPropsFormProps) {
  // Choices declared without a type get their values' (props-form-schema.ts): the form has a field for them.
  const formSchema = useMemo(() => propsFormSchema(schema), [schema]);
  const formContext: PropsFormContext = useMemo(() => ({ owner }), [owner]);
  return (
    <Form
      schema={formSchema as RJSFSchema}
      uiSchema={UI_SCHEMA}
      templates={TEMPLATES}
      experimental_defaultFormStateBehavior={DEFAULTS}
      formData={props}
      validator={schemaFormValidator}
      idPrefix={idPrefix}
      formContext={formContext}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      onChange={(event) => onChange((event.formData ?? {}) as JsonValue)}
    />
  );
}

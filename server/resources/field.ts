import type { FieldInput, FieldItem } from '../../shared';
import { ResourceDefinitionError } from './resource-definition-error';

/** Field names: identifiers, so they are safe as JSON keys and in SQL JSON paths. `id` belongs to the record. */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * What a relation field is bound to: the parts of a `Relation` (relation.ts) it reads. Declared here, not imported,
 * because relation.ts imports this file (FIELD_NAME_PATTERN): a relation is named like a field, not the reverse.
 */
export interface FieldRelation {
  readonly name: string;
  readonly label: string;
  readonly resource: string;
  readonly foreignKey: string;
}

export interface FieldOptions {
  label?: string;
  required?: boolean;
  maxLength?: number;
  help?: string;
}

export interface SelectFieldOptions extends FieldOptions {
  options: readonly string[];
}

/**
 * An ordinary form field of a resource: what the form shows and what an update must satisfy.
 * Made with the static helpers (`Field.text('title', { required: true })`); immutable.
 */
export class Field {
  private constructor(
    readonly name: string,
    readonly input: FieldInput,
    readonly label: string,
    readonly required: boolean,
    readonly maxLength: number | undefined,
    readonly options: readonly string[] | undefined,
    readonly help: string | undefined,
    /** A relation field: the belongsTo relation it sets (see Field.relation). */
    readonly relation: string | undefined = undefined,
    /** A relation field once bound to its relation (boundTo): the related resource. */
    readonly resource: string | undefined = undefined,
    /** Whether the label was given, or is to be the relation's own. */
    private readonly labelGiven = true,
  ) {
    Object.freeze(this);
  }

  static text(name: string, options: FieldOptions = {}): Field {
    return Field.make(name, 'text', options);
  }

  static textarea(name: string, options: FieldOptions = {}): Field {
    return Field.make(name, 'textarea', options);
  }

  static email(name: string, options: FieldOptions = {}): Field {
    return Field.make(name, 'email', options);
  }

  static number(name: string, options: Omit<FieldOptions, 'maxLength'> = {}): Field {
    return Field.make(name, 'number', options);
  }

  static checkbox(name: string, options: Omit<FieldOptions, 'maxLength' | 'required'> = {}): Field {
    return Field.make(name, 'checkbox', options);
  }

  /** A calendar day, held as `YYYY-MM-DD` (a date input in the form); a list sorts and filters it by day. */
  static date(name: string, options: Omit<FieldOptions, 'maxLength'> = {}): Field {
    return Field.make(name, 'date', options);
  }

  static select(name: string, options: SelectFieldOptions): Field {
    const values = options.options;
    if (!Array.isArray(values) || values.length === 0 || values.some((value) => typeof value !== 'string')) {
      throw new ResourceDefinitionError(`Select field "${name}" needs a non-empty list of string options.`);
    }
    if (new Set(values).size !== values.length) {
      throw new ResourceDefinitionError(`Select field "${name}" lists an option twice.`);
    }
    return Field.make(name, 'select', options, Object.freeze([...values]));
  }

  /**
   * Sets a belongsTo relation of the resource (`relations()`), by its name: the form offers a search of the related
   * resource's records and saves the chosen one's id under the relation's foreign key, which is the field's name in
   * records and updates. An update naming a record that does not exist (in the tenant) is refused. The label is the
   * relation's unless given.
   */
  static relation(relationName: string, options: Omit<FieldOptions, 'maxLength'> = {}): Field {
    const unbound = Field.make(relationName, 'relation', options);
    return new Field(
      unbound.name,
      'relation',
      unbound.label,
      unbound.required,
      undefined,
      undefined,
      unbound.help,
      relationName,
      undefined,
      options.label !== undefined,
    );
  }

  /** This relation field as it stands in its resource: named by the relation's key, labelled by it unless given. */
  boundTo(relation: FieldRelation): Field {
    return new Field(
      relation.foreignKey,
      'relation',
      this.labelGiven ? this.label : relation.label,
      this.required,
      undefined,
      undefined,
      this.help,
      relation.name,
      relation.resource,
    );
  }

  /** The field as `GET /api/resources/:name` describes it. */
  toItem(): FieldItem {
    const item: FieldItem = { type: 'field', name: this.name, label: this.label, input: this.input };
    if (this.required) item.required = true;
    if (this.maxLength !== undefined) item.maxLength = this.maxLength;
    if (this.options) item.options = [...this.options];
    if (this.help !== undefined) item.help = this.help;
    if (this.resource !== undefined) item.resource = this.resource;
    if (this.relation !== undefined) item.relation = this.relation;
    return item;
  }

  private static make(name: string, input: FieldInput, options: FieldOptions, values?: readonly string[]): Field {
    if (typeof name !== 'string' || !FIELD_NAME_PATTERN.test(name) || name === 'id') {
      throw new ResourceDefinitionError(
        `Field name ${JSON.stringify(name)} is not valid: use a letter then letters, digits or "_" (and not "id").`,
      );
    }
    // Every object has these names (`constructor`, `toString`…): a record without the field would seem to hold a
    // function, in the server's checks (a required field passing empty) and in every page that reads it.
    if (name in Object.prototype) {
      throw new ResourceDefinitionError(
        `Field name ${JSON.stringify(name)} is not valid: every JavaScript object has a "${name}", so a record ` +
          'without the field would seem to hold one. Choose another name.',
      );
    }
    // The types say which options each kind takes, but only of a literal: options built in a variable pass any key.
    const allowed = OPTIONS_OF[input];
    const refused = Object.keys(options).filter(
      (key) => !allowed.includes(key) && options[key as keyof FieldOptions] !== undefined,
    );
    if (refused.length > 0) {
      throw new ResourceDefinitionError(
        `Field "${name}": a ${input} field takes no ${refused.map((key) => `"${key}"`).join(', ')}` +
          `${input === 'checkbox' && refused.includes('required') ? ' (unticked is a value: false)' : ''}; it takes ` +
          `${allowed.map((key) => `"${key}"`).join(', ')}.`,
      );
    }
    const { maxLength } = options;
    if (maxLength !== undefined && (!Number.isSafeInteger(maxLength) || maxLength < 1)) {
      throw new ResourceDefinitionError(`Field "${name}": maxLength must be a whole number of at least 1.`);
    }
    return new Field(
      name,
      input,
      options.label ?? humanize(name),
      options.required ?? false,
      maxLength,
      values,
      options.help,
    );
  }
}

/** The options each kind of field takes, as its helper's type says. */
const OPTIONS_OF: Readonly<Record<FieldInput, readonly string[]>> = {
  text: ['label', 'required', 'maxLength', 'help'],
  textarea: ['label', 'required', 'maxLength', 'help'],
  email: ['label', 'required', 'maxLength', 'help'],
  select: ['label', 'required', 'maxLength', 'help', 'options'],
  number: ['label', 'required', 'help'],
  date: ['label', 'required', 'help'],
  relation: ['label', 'required', 'help'],
  checkbox: ['label', 'help'],
};

function humanize(name: string): string {
  const spaced = name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

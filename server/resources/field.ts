import { describe, isPlainObject, type FieldInput, type FieldItem } from '../../shared';
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

/**
 * The largest `maxLength` a field may declare, in characters. A save of a resource's records gets room in its body
 * for every text field at its maxLength (record-body-limit.ts): `maxLength: 1e9` let each save of that resource send
 * about 12 GB. A million characters is a long book.
 */
export const MAX_FIELD_LENGTH = 1_000_000;

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
    const given: unknown = options;
    const values = isPlainObject(given) ? options.options : undefined;
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
    // Given from JavaScript, or through `as`: `null` would fail below as a TypeError naming no field.
    const given: unknown = options;
    if (!isPlainObject(given)) {
      throw new ResourceDefinitionError(
        `Field "${name}": its options must be an object such as { label: 'Title' }, got ${describe(given)}.`,
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
    checkOptionTypes(name, options);
    return new Field(
      name,
      input,
      options.label ?? humanize(name),
      options.required ?? false,
      options.maxLength,
      values,
      options.help,
    );
  }
}

/**
 * Throws unless each option given has its type (the types say so, but not to JavaScript or to `as`): a label of 42 was
 * served as the field's label, and a maxLength past MAX_FIELD_LENGTH made its resource's saves take any body.
 */
function checkOptionTypes(name: string, options: FieldOptions): void {
  const { label, required, maxLength, help } = options;
  if (label !== undefined && (typeof label !== 'string' || label.trim() === '')) {
    throw new ResourceDefinitionError(
      `Field "${name}": label must be a non-empty string, got ${describe(label)}; leave it out for one made from ` +
        'the name.',
    );
  }
  if (required !== undefined && typeof required !== 'boolean') {
    throw new ResourceDefinitionError(`Field "${name}": required must be true or false, got ${describe(required)}.`);
  }
  if (help !== undefined && typeof help !== 'string') {
    throw new ResourceDefinitionError(`Field "${name}": help must be a string, got ${describe(help)}.`);
  }
  if (maxLength !== undefined && (!Number.isSafeInteger(maxLength) || maxLength < 1 || maxLength > MAX_FIELD_LENGTH)) {
    throw new ResourceDefinitionError(
      `Field "${name}": maxLength must be a whole number from 1 to ${MAX_FIELD_LENGTH.toLocaleString('en')} ` +
        `(MAX_FIELD_LENGTH), got ${typeof maxLength === 'number' ? String(maxLength) : describe(maxLength)}: each ` +
        "save of the resource's records may send that many characters per field.",
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

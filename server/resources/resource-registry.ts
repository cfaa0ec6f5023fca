/*
 * Above 300 lines for one reason: a resource is checked whole when it is registered (fields and slots, list
 * columns, relations, filters), each check with a message naming the resource, so a bad definition stops the
 * start instead of failing a request.
 */
import {
  deepFreeze,
  RELEVANCE_SORT,
  Slot,
  SLUG_PATTERN,
  type FormItem,
  type ResourceDefinition,
  type ResourceSummary,
} from '../../shared';
import type { ConfiguredFormSlot } from '../slots/configured-forms';
import { formItemsWith } from './configured-form-items';
import { assertHasManyKey } from './has-many-key';
import type { RegisteredFilter, RegisteredResource } from './registered-resource';
import { Field } from './field';
import { RecordFilter } from './record-filter';
import type { SortKeyKind } from '../storage/record-page-query';
import { Relation } from './relation';
import { Resource } from './resource';
import { ResourceDefinitionError } from './resource-definition-error';
import { assertRecordKeyAllowed } from './reserved-record-keys';
import { readDefinitionPart } from './read-definition-part';

/** A relation through which records of a resource hold the id of another's: see ResourceRegistry.referrersOf. */
export interface Referrer {
  resource: string;
  foreignKey: string;
  /** What the holding resource calls one record (`person`) and several (its label, `People`). */
  recordLabel: string;
  label: string;
}

/**
 * The registered resources, in registration order. `fields()` and `relations()` are read once, at registration,
 * where a bad definition fails at once with a message naming the resource.
 */
export class ResourceRegistry {
  /** As served: code's registration with the configured form slots placed. */
  private readonly byName = new Map<string, RegisteredResource>();
  /** As code registered them. */
  private readonly byCode = new Map<string, RegisteredResource>();
  private configuredForms: readonly ConfiguredFormSlot[] = [];
  private currentVersion = 0;

  get version(): number {
    return this.currentVersion;
  }

  register(resource: Resource): RegisteredResource {
    if (!(resource instanceof Resource)) {
      throw new ResourceDefinitionError('registerResource takes an instance of a Resource subclass.');
    }
    const name: unknown = resource.name;
    if (typeof name !== 'string' || !SLUG_PATTERN.test(name)) {
      throw new ResourceDefinitionError(
        `Resource name ${JSON.stringify(name)} is not valid: use lower case letters, digits and "-".`,
      );
    }
    if (this.byName.has(name)) throw new ResourceDefinitionError(`Resource "${name}" is already registered.`);
    if (typeof resource.label !== 'string' || resource.label.trim() === '') {
      throw new ResourceDefinitionError(`Resource "${name}" needs a label.`);
    }
    const listed = checkItems(
      name,
      readDefinitionPart(name, 'fields()', () => resource.fields()),
    );
    const fields = new Map<string, Field>();
    for (const item of listed) if (item instanceof Field && item.input !== 'relation') fields.set(item.name, item);
    for (const required of ['title', 'label']) {
      if (fields.has(required)) continue;
      if (listed.some((item) => item instanceof Field && item.name === required)) {
        throw new ResourceDefinitionError(
          `Resource "${name}": its "${required}" field is a relation field (Field.relation); every record carries ` +
            `a "${required}" of its own: make it an ordinary field (Field.text, for one).`,
        );
      }
      throw new ResourceDefinitionError(`Resource "${name}" has no "${required}" field; every record carries one.`);
    }
    const relationFields = new Set(
      listed.flatMap((item) => (item instanceof Field && item.relation !== undefined ? [item.relation] : [])),
    );
    const relations = checkRelations(
      name,
      readDefinitionPart(name, 'relations()', () => resource.relations()),
      fields,
      relationFields,
    );
    for (const relation of relations) {
      // A hasMany's key is its target's belongsTo key, checked there (assertHasManyKey).
      if (relation.kind !== 'belongsTo') continue;
      assertRecordKeyAllowed(
        name,
        relation.foreignKey,
        `the key "${relation.foreignKey}" of relation "${relation.name}"`,
      );
    }
    const items = bindRelationFields(name, listed, relations, fields);
    const listColumns = checkListColumns(
      name,
      readDefinitionPart(name, 'listColumns()', () => resource.listColumns()),
      fields,
      relations,
    );
    const sortKeys = new Map<string, SortKeyKind>();
    for (const column of listColumns) {
      const kind = sortKeyKindOf(fields.get(column));
      if (!kind) continue;
      // `sort=relevance` orders a word search: a column of that name could never be sorted by, its header a 400.
      if (column === RELEVANCE_SORT) {
        throw new ResourceDefinitionError(
          `Resource "${name}": the list column "${RELEVANCE_SORT}" cannot be sorted by, since sort=${RELEVANCE_SORT} ` +
            'orders a word search by how well records match: name the field otherwise (such as "score"), or leave ' +
            'it out of listColumns().',
        );
      }
      sortKeys.set(column, kind);
    }
    const filters = checkFilters(
      name,
      readDefinitionPart(name, 'filters()', () => resource.filters()),
      fields,
      relations,
    );
    const recordLabel = resource.recordLabel ?? 'record';
    if (typeof recordLabel !== 'string' || recordLabel.trim() === '') {
      throw new ResourceDefinitionError(`Resource "${name}": recordLabel must be a word such as "article".`);
    }
    const definition: ResourceDefinition = {
      name,
      label: resource.label,
      recordLabel,
      fields: items.map(toFormItem),
      relations: relations.map((relation) => relation.toDefinition()),
      listColumns,
      sortableColumns: [...sortKeys.keys()],
      searchableColumns: [...sortKeys].filter(([, kind]) => kind === 'text').map(([column]) => column),
      filters: [...filters.values()].map((filter) => filter.definition),
      canCreate: readDefinitionPart(name, 'allowsCreate()', () => resource.allowsCreate()) === true,
      canDelete: readDefinitionPart(name, 'allowsDelete()', () => resource.allowsDelete()) === true,
    };
    const registered: RegisteredResource = Object.freeze({
      resource,
      name,
      label: resource.label,
      items,
      fields,
      relations,
      sortKeys,
      filters,
      definition: deepFreeze(definition),
      configuredFormSlots: [],
    });
    this.byCode.set(name, registered);
    this.byName.set(name, this.withConfiguredForms(registered));
    this.currentVersion++;
    return registered;
  }

  /**
   * Places the form slots of configuration (REMOTES_CONFIG's `"forms"`, those that can render now) in the forms,
   * replacing those placed before; the definitions served change for the next request. A slot naming no registered
   * resource, or no place in its form, is left out: the slot check refuses it.
   */
  placeConfiguredForms(forms: readonly ConfiguredFormSlot[]): void {
    this.configuredForms = forms;
    for (const [name, registered] of this.byCode) this.byName.set(name, this.withConfiguredForms(registered));
    this.currentVersion++;
  }

  private withConfiguredForms(registered: RegisteredResource): RegisteredResource {
    if (!this.configuredForms.some((slot) => slot.resource === registered.name)) return registered;
    const { fields, placed } = formItemsWith(registered, this.configuredForms);
    return Object.freeze({
      ...registered,
      definition: deepFreeze({ ...registered.definition, fields }),
      configuredFormSlots: placed,
    });
  }

  get(name: string): RegisteredResource | undefined {
    return this.byName.get(name);
  }

  list(): RegisteredResource[] {
    return [...this.byName.values()];
  }

  summaries(): ResourceSummary[] {
    return this.list().map(({ name, label }) => ({ name, label }));
  }

  /**
   * The relations through which records of other resources (or of `resource` itself, by its `hasMany`) hold the id
   * of a `resource` record: what a delete would orphan. Each as the resource holding the key, the key's name, and
   * what that resource calls one of its records and several (`person`, `people`), for the refusal to name them.
   */
  referrersOf(resource: string): Referrer[] {
    const found = new Map<string, Referrer>();
    const referrer = (holding: string, foreignKey: string): Referrer => {
      const definition = this.byName.get(holding)?.definition;
      return {
        resource: holding,
        foreignKey,
        recordLabel: definition?.recordLabel ?? 'record',
        label: definition?.label ?? holding,
      };
    };
    for (const registered of this.byName.values()) {
      for (const relation of registered.relations) {
        const holder =
          relation.kind === 'belongsTo' && relation.resource === resource
            ? referrer(registered.name, relation.foreignKey)
            : relation.kind === 'hasMany' && registered.name === resource
              ? referrer(relation.resource, relation.foreignKey)
              : undefined;
        if (holder) found.set(`${holder.resource}\u0000${holder.foreignKey}`, holder);
      }
    }
    return [...found.values()];
  }

  /**
   * Throws when a relation points at a resource nobody registered, or a hasMany names a key its resource's records do
   * not hold this one's id in. Run once everything is registered.
   */
  assertRelationsResolve(): void {
    for (const registered of this.byName.values()) {
      for (const relation of registered.relations) {
        const target = this.byName.get(relation.resource);
        if (!target) {
          throw new ResourceDefinitionError(
            `Relation "${relation.name}" of resource "${registered.name}" points at resource "${relation.resource}", ` +
              `which is not registered. Registered: ${[...this.byName.keys()].join(', ')}.`,
          );
        }
        if (relation.kind === 'hasMany') assertHasManyKey(registered.name, relation, target);
      }
    }
  }
}

function checkItems(resource: string, items: unknown): readonly (Field | Slot)[] {
  if (!Array.isArray(items))
    throw new ResourceDefinitionError(`Resource "${resource}": fields() must return an array.`);
  const names = new Set<string>();
  items.forEach((item: unknown, index) => {
    if (item instanceof Slot) {
      if (item.content !== null) {
        throw new ResourceDefinitionError(
          `Resource "${resource}": the slot "${item.component}" at position ${index} has content; form slots take props only.`,
        );
      }
      const placement = Object.keys(item.placement);
      if (placement.length > 0) {
        // A form slot sits where it is listed, for whoever may open the form: a rule or an order given to it would
        // be ignored, the slot shown to everyone.
        throw new ResourceDefinitionError(
          `Resource "${resource}": the slot "${item.component}" at position ${index} has a placement ` +
            `(${placement.join(', ')}); form slots take props only: its place is its position in fields(), and ` +
            'who sees it is who may open the form.',
        );
      }
      return;
    }
    if (!(item instanceof Field)) {
      throw new ResourceDefinitionError(
        `Resource "${resource}": item ${index} of fields() is neither a Field nor a Slot.`,
      );
    }
    if (names.has(item.name))
      throw new ResourceDefinitionError(`Resource "${resource}": field "${item.name}" is listed twice.`);
    names.add(item.name);
  });
  return Object.freeze([...(items as (Field | Slot)[])]);
}

/**
 * The items with each relation field (Field.relation) bound to the belongsTo relation it names, and added to
 * `fields` under the relation's key: the key an update sets, refused for any other field.
 */
function bindRelationFields(
  resource: string,
  items: readonly (Field | Slot)[],
  relations: readonly Relation[],
  fields: Map<string, Field>,
): readonly (Field | Slot)[] {
  const bound = items.map((item) => {
    if (!(item instanceof Field) || item.input !== 'relation') return item;
    const relation = relations.find((each) => each.name === item.relation);
    if (relation?.kind !== 'belongsTo') {
      const names = relations.filter((each) => each.kind === 'belongsTo').map((each) => each.name);
      throw new ResourceDefinitionError(
        `Resource "${resource}": the relation field "${item.relation}" names no belongsTo relation of it` +
          (names.length > 0 ? ` (its belongsTo relations: ${names.join(', ')}).` : ' (it has none).'),
      );
    }
    const field = item.boundTo(relation);
    if (fields.has(field.name)) {
      throw new ResourceDefinitionError(`Resource "${resource}": relation "${relation.name}" has two fields.`);
    }
    fields.set(field.name, field);
    return field;
  });
  return Object.freeze(bound);
}

function checkListColumns(
  resource: string,
  columns: unknown,
  fields: ReadonlyMap<string, Field>,
  relations: readonly Relation[],
): string[] {
  if (!Array.isArray(columns) || columns.length === 0) {
    throw new ResourceDefinitionError(`Resource "${resource}": listColumns() must return at least one field name.`);
  }
  const seen = new Set<string>();
  for (const column of columns) {
    if (typeof column !== 'string' || !fields.has(column)) {
      throw new ResourceDefinitionError(
        `Resource "${resource}": list column ${JSON.stringify(column)} is not one of its fields ` +
          `(${[...fields.keys()].join(', ')})${relationColumnHint(column, fields, relations)}.`,
      );
    }
    if (seen.has(column))
      throw new ResourceDefinitionError(`Resource "${resource}": list column "${column}" is listed twice.`);
    seen.add(column);
  }
  return [...seen];
}

/**
 * Why a relation's name (or key) is no list column, when it is one: a relation's column is named by its foreign key
 * (the field a record holds), and only a belongsTo with its Field.relation listed has that field. Said because a
 * filter names the relation itself (`RecordFilter.relation('customer')`), so `'customer'` is the natural first try.
 */
function relationColumnHint(
  column: unknown,
  fields: ReadonlyMap<string, Field>,
  relations: readonly Relation[],
): string {
  const relation = relations.find((each) => each.name === column || each.foreignKey === column);
  if (!relation) return '';
  if (relation.kind === 'hasMany') {
    return `: "${relation.name}" is a hasMany relation, whose records the record page lists; it is no column`;
  }
  if (!fields.has(relation.foreignKey)) {
    return (
      `: to show relation "${relation.name}" as a column, list Field.relation(${JSON.stringify(relation.name)}) ` +
      `among the fields and name the column by its key, "${relation.foreignKey}"`
    );
  }
  return `: a relation's column is named by its key: "${relation.foreignKey}"`;
}

/**
 * How a list column sorts: short text and days by its lower-cased value, numbers and checkboxes by value. Long text
 * (textarea) is not sortable: its index entries would be as large as the texts.
 */
function sortKeyKindOf(field: Field | undefined): SortKeyKind | undefined {
  switch (field?.input) {
    case 'text':
    case 'email':
    case 'select':
    // `YYYY-MM-DD` sorts as text in the order of days.
    case 'date':
      return 'text';
    case 'number':
    case 'checkbox':
      return 'number';
    default:
      return undefined;
  }
}

/** `relationFields`: the relations the form edits (by Field.relation), whose key the fix is never to list again. */
function checkRelations(
  resource: string,
  relations: unknown,
  fields: ReadonlyMap<string, Field>,
  relationFields: ReadonlySet<string>,
): readonly Relation[] {
  if (!Array.isArray(relations)) {
    throw new ResourceDefinitionError(`Resource "${resource}": relations() must return an array.`);
  }
  const names = new Set<string>();
  for (const relation of relations as unknown[]) {
    if (!(relation instanceof Relation)) {
      throw new ResourceDefinitionError(`Resource "${resource}": relations() must return Relation objects.`);
    }
    if (names.has(relation.name)) {
      throw new ResourceDefinitionError(`Resource "${resource}": relation "${relation.name}" is listed twice.`);
    }
    if (relation.kind === 'belongsTo' && fields.has(relation.foreignKey)) {
      // A plain field would let an update point the key anywhere; Field.relation checks that the record exists.
      // With the relation field listed already, the key is a name taken by another field (`title`, say): the fix
      // is another key, not the relation field the message would otherwise advise.
      const fix = relationFields.has(relation.name)
        ? `a record keeps the relation's key under that name: give the relation another foreignKey, or rename ` +
          `the field`
        : `to edit the relation in the form, list Field.relation(${JSON.stringify(relation.name)}) instead`;
      throw new ResourceDefinitionError(
        `Resource "${resource}": relation "${relation.name}" uses "${relation.foreignKey}", which is also a field ` +
          `(${fix}).`,
      );
    }
    names.add(relation.name);
  }
  return Object.freeze([...(relations as Relation[])]);
}

function checkFilters(
  resource: string,
  filters: unknown,
  fields: ReadonlyMap<string, Field>,
  relations: readonly Relation[],
): ReadonlyMap<string, RegisteredFilter> {
  if (!Array.isArray(filters))
    throw new ResourceDefinitionError(`Resource "${resource}": filters() must return an array.`);
  const checked = new Map<string, RegisteredFilter>();
  for (const filter of filters as unknown[]) {
    if (!(filter instanceof RecordFilter)) {
      throw new ResourceDefinitionError(`Resource "${resource}": filters() must return RecordFilter objects.`);
    }
    if (checked.has(filter.name)) {
      throw new ResourceDefinitionError(`Resource "${resource}": filter "${filter.name}" is listed twice.`);
    }
    if (filter.kind === 'relation') {
      const relation = relations.find((each) => each.name === filter.name && each.kind === 'belongsTo');
      if (!relation) {
        const byKey = relations.find((each) => each.kind === 'belongsTo' && each.foreignKey === filter.name);
        const names = relations.filter((each) => each.kind === 'belongsTo').map((each) => each.name);
        throw new ResourceDefinitionError(
          `Resource "${resource}": filter "${filter.name}" names no belongsTo relation of it` +
            (byKey
              ? ` ("${filter.name}" is the key of relation "${byKey.name}": name the relation, ` +
                `RecordFilter.relation(${JSON.stringify(byKey.name)})).`
              : names.length > 0
                ? ` (its belongsTo relations: ${names.join(', ')}).`
                : ' (it has none).'),
        );
      }
      checked.set(filter.name, {
        key: relation.foreignKey,
        definition: { name: filter.name, label: relation.label, kind: 'relation', resource: relation.resource },
      });
      continue;
    }
    const field = fields.get(filter.name);
    const input = filter.kind === 'dateRange' ? 'date' : filter.kind;
    if (field?.input !== input) {
      throw new ResourceDefinitionError(
        `Resource "${resource}": filter "${filter.name}" needs a ${input} field of that name.` +
          filterKindHint(filter.name, field),
      );
    }
    checked.set(filter.name, {
      key: field.name,
      definition: {
        name: field.name,
        label: field.label,
        kind: filter.kind,
        ...(field.options ? { options: [...field.options] } : {}),
      },
    });
  }
  return checked;
}

/** What a filter of the wrong kind should have been, said from the field it names (or that there is none). */
function filterKindHint(name: string, field: Field | undefined): string {
  if (!field) return ` It has no field "${name}".`;
  const quoted = JSON.stringify(name);
  const fitting: Partial<Record<string, string>> = {
    select: `RecordFilter.select(${quoted})`,
    checkbox: `RecordFilter.checkbox(${quoted})`,
    date: `RecordFilter.dateRange(${quoted})`,
  };
  if (field.relation !== undefined) {
    return ` "${name}" is the key of relation "${field.relation}": filter it with RecordFilter.relation(${JSON.stringify(field.relation)}).`;
  }
  const filter = fitting[field.input];
  if (filter) return ` "${name}" is a ${field.input} field: filter it with ${filter}.`;
  return (
    ` "${name}" is a ${field.input} field, which no filter takes (filters take select, checkbox and date fields ` +
    'and belongsTo relations): a word search finds its words, a sort orders it.'
  );
}

function toFormItem(item: Field | Slot): FormItem {
  if (item instanceof Field) return item.toItem();
  const entry = item.toEntry();
  return { type: 'slot', component: entry.component, props: entry.props };
}

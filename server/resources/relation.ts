import { describe, isPlainObject, type RelationDefinition } from '../../shared';
import { FIELD_NAME_PATTERN, type FieldRelation } from './field';
import { ResourceDefinitionError } from './resource-definition-error';

export type RelationKind = 'belongsTo' | 'hasMany';

/**
 * A link from a record to records of another resource, through a key kept in record data:
 * - belongsTo: this record's `foreignKey` holds the id of one related record;
 * - hasMany: the related records' `foreignKey` holds this record's id.
 */
export class Relation implements FieldRelation {
  private constructor(
    readonly kind: RelationKind,
    readonly name: string,
    readonly label: string,
    readonly resource: string,
    readonly foreignKey: string,
  ) {
    Object.freeze(this);
  }

  static belongsTo(name: string, options: { label: string; resource: string; foreignKey: string }): Relation {
    return Relation.make('belongsTo', name, options);
  }

  static hasMany(name: string, options: { label: string; resource: string; foreignKey: string }): Relation {
    return Relation.make('hasMany', name, options);
  }

  toDefinition(): RelationDefinition {
    return { name: this.name, label: this.label, resource: this.resource };
  }

  private static make(
    kind: RelationKind,
    name: string,
    options: { label: string; resource: string; foreignKey: string },
  ): Relation {
    // `test` reads its argument as a string: a name or key left out would pass as "undefined".
    if (typeof name !== 'string' || !FIELD_NAME_PATTERN.test(name))
      throw new ResourceDefinitionError(`Relation name ${JSON.stringify(name)} is not valid.`);
    // Given from JavaScript, or through `as`: a label of 42 was served as the relation's heading, and as its field's.
    const given: unknown = options;
    if (!isPlainObject(given)) {
      throw new ResourceDefinitionError(
        `Relation "${name}": its options must be an object such as { label: 'Author', resource: 'authors', ` +
          `foreignKey: 'authorId' }, got ${describe(given)}.`,
      );
    }
    if (typeof given.label !== 'string' || given.label.trim() === '') {
      throw new ResourceDefinitionError(
        `Relation "${name}": label must be a non-empty string, got ${describe(given.label)}.`,
      );
    }
    if (typeof given.resource !== 'string' || given.resource === '') {
      throw new ResourceDefinitionError(
        `Relation "${name}": resource must be the name of a registered resource, got ${describe(given.resource)}.`,
      );
    }
    if (typeof given.foreignKey !== 'string' || !FIELD_NAME_PATTERN.test(given.foreignKey)) {
      throw new ResourceDefinitionError(
        `Relation "${name}": foreign key ${JSON.stringify(given.foreignKey)} is not valid: use a letter then ` +
          'letters, digits or "_".',
      );
    }
    return new Relation(kind, name, options.label, options.resource, options.foreignKey);
  }
}

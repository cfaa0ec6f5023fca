import type { RelationDefinition } from '../../shared';
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
    if (!FIELD_NAME_PATTERN.test(name))
      throw new ResourceDefinitionError(`Relation name ${JSON.stringify(name)} is not valid.`);
    if (!FIELD_NAME_PATTERN.test(options.foreignKey)) {
      throw new ResourceDefinitionError(
        `Relation "${name}": foreign key ${JSON.stringify(options.foreignKey)} is not valid.`,
      );
    }
    return new Relation(kind, name, options.label, options.resource, options.foreignKey);
  }
}

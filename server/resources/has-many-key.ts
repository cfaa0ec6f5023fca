import type { RegisteredResource } from './registered-resource';
import type { Relation } from './relation';
import { ResourceDefinitionError } from './resource-definition-error';

/**
 * Throws unless `relation`, a hasMany of resource `owner`, names the key of a belongsTo relation of its resource
 * (`target`) back to `owner`. A hasMany lists the target's records whose key holds the owner record's id: a key that no
 * such relation keeps (misspelt, in another case, or holding another resource's ids) lists nothing, or the wrong
 * records, on every record page, and no request would ever say so.
 */
export function assertHasManyKey(owner: string, relation: Relation, target: RegisteredResource): void {
  const belongsTo = target.relations.filter((each) => each.kind === 'belongsTo');
  const holder = belongsTo.find((each) => each.foreignKey === relation.foreignKey);
  if (holder?.resource === owner) return;
  const what =
    `Relation "${relation.name}" of resource "${owner}" (hasMany) lists the records of "${target.name}" whose ` +
    `"${relation.foreignKey}" holds the id of a "${owner}" record`;
  if (holder) {
    throw new ResourceDefinitionError(
      `${what}, but "${target.name}" keeps in "${relation.foreignKey}" the id of a "${holder.resource}" record ` +
        `(its relation "${holder.name}"): give the key of a belongsTo relation of "${target.name}" to "${owner}".`,
    );
  }
  const nearMiss = belongsTo.find((each) => each.foreignKey.toLowerCase() === relation.foreignKey.toLowerCase());
  const keys = belongsTo.map(
    (each) => `"${each.foreignKey}" (relation "${each.name}" to "${each.resource}"${setBy(target, each)})`,
  );
  throw new ResourceDefinitionError(
    `${what}, but no belongsTo relation of "${target.name}" keeps a key "${relation.foreignKey}", so the list ` +
      'would always be empty.' +
      (nearMiss ? ` Did you mean "${nearMiss.foreignKey}" (keys are case-sensitive)?` : '') +
      (keys.length > 0
        ? ` The keys of its belongsTo relations: ${keys.join(', ')}.`
        : ` It has no belongsTo relation: give it Relation.belongsTo(…, { resource: '${owner}', foreignKey: ` +
          `'${relation.foreignKey}' }), and Field.relation(…) to set it in the form.`),
  );
}

/** `, set by Field.relation("team")` when the resource's form sets the relation; nothing when only code does. */
function setBy(resource: RegisteredResource, relation: Relation): string {
  return resource.fields.get(relation.foreignKey)?.input === 'relation'
    ? `, set by Field.relation("${relation.name}")`
    : '';
}

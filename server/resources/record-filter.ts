import { FIELD_NAME_PATTERN } from './field';
import { ResourceDefinitionError } from './resource-definition-error';

export type RecordFilterKind = 'select' | 'checkbox' | 'relation' | 'dateRange';

/**
 * A filter staff can apply to a resource's list, declared in `Resource.filters()`: by a select field (one of its
 * options), a checkbox field (ticked or not), a belongsTo relation (one related record), or a date field (a range
 * of days, `FROM..TO`, either end open). Filters combine with
 * each other, with the word search and with the sort, and live in the address as `filter.<name>=<value>`.
 * Immutable; checked against the resource's fields and relations at registration.
 */
export class RecordFilter {
  private constructor(
    readonly kind: RecordFilterKind,
    /** A field's name, or a relation's name for `relation`. */
    readonly name: string,
  ) {
    Object.freeze(this);
  }

  static select(field: string): RecordFilter {
    return RecordFilter.make('select', field);
  }

  static checkbox(field: string): RecordFilter {
    return RecordFilter.make('checkbox', field);
  }

  static relation(relation: string): RecordFilter {
    return RecordFilter.make('relation', relation);
  }

  /** Days of a date field from one day to another, both included, either end left open by staff. */
  static dateRange(field: string): RecordFilter {
    return RecordFilter.make('dateRange', field);
  }

  private static make(kind: RecordFilterKind, name: string): RecordFilter {
    if (typeof name !== 'string' || !FIELD_NAME_PATTERN.test(name)) {
      throw new ResourceDefinitionError(`Filter name ${JSON.stringify(name)} is not valid.`);
    }
    return new RecordFilter(kind, name);
  }
}

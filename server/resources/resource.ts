import type { Slot } from '../../shared';
import type { Field } from './field';
import type { RecordFilter } from './record-filter';
import type { Relation } from './relation';

/**
 * A kind of record the admin manages (articles, authors, ...). Subclass it and register the instance with
 * `app.registerResource(...)`.
 *
 * `fields()` lists the form in order: ordinary `Field`s and `Slot`s, in any order; a slot is rendered by the host
 * at its position among the fields. Records are stored per tenant by the app's record source; updates are
 * checked against the fields (required, maxLength, select options, types; unknown fields refused).
 * Every resource has a `title` and a `label` field: records always carry both.
 */
export abstract class Resource {
  /** URL name, e.g. `articles`: lower case letters, digits and `-`. */
  abstract readonly name: string;
  abstract readonly label: string;
  /**
   * What one record is called, in lower case (`article`): the messages that count records use it for one ("Delete 1
   * article?") and the label for more. `record` when the resource does not say.
   */
  readonly recordLabel?: string;

  abstract fields(): ReadonlyArray<Field | Slot>;

  relations(): readonly Relation[] {
    return [];
  }

  /**
   * The fields shown as the columns of the resource's list, in order; the first links to the record. By default
   * the title and the label; a resource names what tells its records apart for staff (an author's email, say).
   */
  listColumns(): readonly string[] {
    return ['title', 'label'];
  }

  /** The filters the list offers staff, in order (RecordFilter.select / checkbox / relation). None by default. */
  filters(): readonly RecordFilter[] {
    return [];
  }

  /** Whether staff may create records (the New page, `POST .../records`). Off unless the resource says so. */
  allowsCreate(): boolean {
    return false;
  }

  /**
   * Whether staff may delete records (`DELETE .../records/:id`), each restorable for RECORD_RESTORE_WINDOW_MS. Off
   * unless the resource says so. A record that others refer to through a relation is never deleted.
   */
  allowsDelete(): boolean {
    return false;
  }
}

import { Field } from '../../server/resources/field';
import { Resource } from '../../server/resources/resource';
import type { TestAppOptions } from './test-app';

/** A resource with the defaults: no create, no delete (the demo's articles and authors allow both). */
export class NotesResource extends Resource {
  readonly name = 'notes';
  readonly label = 'Notes';
  fields() {
    return [Field.text('title'), Field.text('label')];
  }
}

/** Test app options registering NotesResource beside the demo's resources. */
export const withNotes: TestAppOptions = { configure: (app) => app.registerResource(new NotesResource()) };

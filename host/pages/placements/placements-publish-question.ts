import type { PlacementChange } from '../../../shared';
import { countOf } from '../common/count-in-words';

/** How each kind of change is counted in the question, in this order. */
const KINDS: ReadonlyArray<[PlacementChange['change'], string, string]> = [
  ['added', 'slot added', 'slots added'],
  ['removed', 'slot removed', 'slots removed'],
  ['changed', 'slot changed', 'slots changed'],
  ['order', 'location in another order', 'locations in another order'],
  ['allow-list', 'allow-list changed', 'allow-lists changed'],
  ['forms', 'form changed', 'forms changed'],
];

/**
 * Whether a publish would change nothing: the saved draft is what is published and the page has no unsaved edit. The
 * question then offers no Publish: it would only make a revision identical to the one in force.
 */
export function nothingToPublish(changes: readonly PlacementChange[] | null | undefined, unsaved: boolean): boolean {
  return !unsaved && changes !== undefined && changes !== null && changes.length === 0;
}

/**
 * What the Publish confirmation says it will publish: the saved draft's changes against the published revision,
 * counted by kind (`2 slots added, 1 slot removed`), as the Changes section lists them one by one; `changes` null
 * when the saved draft cannot be read, undefined while they load. Unsaved edits are saved first and published with
 * them, but the server has not compared them yet: they are said apart, as what changes besides the counts (or alone,
 * when the saved draft is what is published).
 */
export function publishQuestion(changes: readonly PlacementChange[] | null | undefined, unsaved: boolean): string {
  const alsoUnsaved = unsaved ? ' Your unsaved changes are saved first and published with it.' : '';
  if (changes === undefined) return `What it changes is still being loaded.${alsoUnsaved}`;
  if (changes === null) {
    return (
      'What it changes is not known: part of the saved draft cannot be read, so the server will refuse it' +
      (unsaved ? ' unless your unsaved changes, saved first, mend it.' : '.')
    );
  }
  const hosts = ' Every host serves the new revision within seconds.';
  if (changes.length === 0) {
    return unsaved
      ? `The saved draft is what is published: your unsaved changes are saved first and are what it publishes.${hosts}`
      : 'Nothing to publish: the saved draft is what is published, and there are no unsaved changes.';
  }
  const counts = KINDS.map(([kind, one, many]) => {
    const count = changes.filter((change) => change.change === kind).length;
    return count === 0 ? null : countOf(count, one, many);
  }).filter((count) => count !== null);
  const what = `It makes ${countOf(changes.length, 'change')}: ${counts.join(', ')}`;
  return unsaved
    ? `${what}, as saved; your unsaved changes are saved first and published with them, besides these counts.${hosts}`
    : `${what}.${hosts}`;
}

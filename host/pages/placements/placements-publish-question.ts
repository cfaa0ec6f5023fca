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
 * What the Publish confirmation says it will publish: the saved draft's changes against the published revision,
 * counted by kind (`2 slots added, 1 slot removed`), as the Changes section lists them one by one; `changes` null
 * when the saved draft cannot be read, undefined while they load. Unsaved edits are saved first, so they are said apart: the counts are the
 * saved draft's and do not include them yet.
 */
export function publishQuestion(changes: readonly PlacementChange[] | null | undefined, unsaved: boolean): string {
  const first = unsaved ? ' Your unsaved changes are saved first; the counts are of the saved draft without them.' : '';
  if (changes === undefined) return `What it changes is still being loaded.${first}`;
  if (changes === null) {
    return `What it changes is not known: part of the saved draft cannot be read, so the server will refuse it.${first}`;
  }
  const counts = KINDS.map(([kind, one, many]) => {
    const count = changes.filter((change) => change.change === kind).length;
    return count === 0 ? null : countOf(count, one, many);
  }).filter((count) => count !== null);
  const what =
    counts.length === 0
      ? 'The saved draft is what is published: nothing changes.'
      : `It makes ${countOf(changes.length, 'change')}: ${counts.join(', ')}.`;
  return `${what} Every host serves the new revision within seconds.${first}`;
}

import type { PlacementChange, PlacementRevisionSummary, PlacementsDraft } from '../../../shared';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';
import { InstantTime } from '../../text/instant-time';

/**
 * A draft save, a publish or a rollback refused because the draft was saved since the page loaded it (409
 * `error.savedDraft`): who saved it, and when in the reader's time, as the revisions say it (the server's own message
 * has the time in UTC).
 */
export function draftSavedSinceMessage(
  saved: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'>,
  during: 'save' | 'publish' | 'rollback' = 'save',
): string {
  const when = saved.updatedAt === null ? 'an unknown time' : instantInWords(saved.updatedAt, readerLocales());
  const since = `The draft was saved by ${saved.updatedBy ?? 'someone'} at ${when} since you loaded it`;
  return {
    save: `${since}: reload it to see their changes (yours are not saved), then make yours again.`,
    publish: `${since}, so nothing was published: reload it to see what it holds, then publish again.`,
    rollback:
      `${since}, so nothing was rolled back (its changes would have been replaced unseen): reload it to see what it ` +
      'holds, then roll back again.',
  }[during];
}

/**
 * What a rollback to `revision` asks first. It publishes that revision and makes it the draft: a saved draft that
 * differs from what is published (changes not published yet) is replaced, its changes lost, and so are the page's
 * unsaved ones.
 */
export function rollbackQuestion(revision: number, draft: { savedChanges: boolean; unsaved: boolean }): string {
  const lost = [
    draft.savedChanges
      ? ' The saved draft differs from what is published: its changes are replaced by those placements and lost.'
      : '',
    draft.unsaved ? ' The draft becomes those placements: your unsaved changes are dropped.' : '',
  ];
  return `Publish revision ${revision}'s placements again, as a new revision?${lost.join('')}`;
}

/**
 * What publishing the saved draft would change, one line per change; null: part of the saved draft cannot be read (a
 * shape problem), so what it would publish is unknown.
 */
export function PlacementsDiff({ changes }: { changes: readonly PlacementChange[] | null }) {
  return (
    <section className="inspector__section" aria-labelledby="placements-diff" data-placements-diff>
      <h2 id="placements-diff">Changes against the published revision</h2>
      {changes === null ? (
        <p className="form-error">
          Not known: part of the saved draft cannot be read (its problem is shown with its slot, or above). Mend it and
          save; a publish is refused until then.
        </p>
      ) : changes.length === 0 ? (
        <p className="empty">The saved draft is what is published.</p>
      ) : (
        <ul>
          {changes.map((change, index) => (
            // The index too: a draft may give two slots one id (a problem it is saved with).
            <li key={`${index}|${change.change}|${change.location}|${change.remote ?? ''}|${change.id ?? ''}`}>
              {describeChange(change)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function describeChange(change: PlacementChange): string {
  if (change.change === 'allow-list') {
    const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') || 'none' : 'any');
    return `${change.location}: remotes allowed ${list(change.before)} → ${list(change.after)}`;
  }
  if (change.change === 'order') {
    const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '');
    return `order at ${change.location}: ${list(change.before)} → ${list(change.after)}`;
  }
  if (change.change === 'forms') {
    return `form slots of ${change.remote ?? ''} in ${change.location}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`;
  }
  const slot = `${change.id ?? ''} of ${change.remote ?? ''} at ${change.location}`;
  if (change.change === 'changed')
    return `changed ${slot}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`;
  return `${change.change} ${slot}`;
}

export interface PlacementRevisionsProps {
  revisions: readonly PlacementRevisionSummary[];
  /** The revision in force on the host that answered (0: none): the newest, unless this host could not take it. */
  inForce: number;
  rollback(revision: number): void;
}

/**
 * The published revisions, newest first, the one in force marked, each older one with a way back to it. When the
 * newest is not the one in force (this host's check refused it: an upgrade that removed a location it uses), says so.
 */
export function PlacementRevisions({ revisions, inForce, rollback }: PlacementRevisionsProps) {
  const newest = revisions[0]?.number;
  return (
    <section className="inspector__section" aria-labelledby="placements-revisions" data-placements-revisions>
      <h2 id="placements-revisions">Revisions</h2>
      {newest !== undefined && newest !== inForce && (
        <p className="form-error" data-placements-not-in-force>
          Revision {newest} is published but not in force on this host: its check fails here (the host&apos;s log names
          the problems), so {inForce === 0 ? 'no revision is' : `revision ${inForce} stays`} in force. Mend the draft
          (its problems are listed above) and publish it, or roll back to a revision that passes.
        </p>
      )}
      {revisions.length === 0 ? (
        <p className="empty">Nothing was published yet.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Revisions table" tabIndex={0}>
          <table className="table">
            <caption className="inspector__caption">Published revisions, newest first</caption>
            <thead>
              <tr>
                {['Revision', 'What', 'By', 'When', ''].map((column, index) => (
                  <th scope="col" key={column || index}>
                    {column || <span className="visually-hidden">Roll back</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {revisions.map((revision, index) => (
                <tr key={revision.number} data-placement-revision={revision.number}>
                  <td>{revision.number}</td>
                  <td>
                    {revision.action === 'rollback' ? `rollback to ${revision.restored ?? '?'}` : 'publish'}
                    {revision.number === inForce ? ' (in force)' : ''}
                  </td>
                  <td>{revision.publishedBy}</td>
                  <td>
                    <InstantTime at={revision.publishedAt} />
                  </td>
                  <td>
                    {index > 0 && (
                      <button
                        type="button"
                        className="button button--secondary"
                        onClick={() => rollback(revision.number)}
                      >
                        Roll back to revision {revision.number}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

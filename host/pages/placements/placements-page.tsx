import { useCallback, useEffect, useRef, useState } from 'react';
import {
  PLACEMENTS_API_PATH,
  PLACEMENTS_EDIT,
  placementsFrameProblem,
  userMay,
  SlotLocation,
  type PlacementComponentsPayload,
  type PlacementPreview,
  type PlacementProblem,
  type PlacementRevisionsPayload,
  type PlacementsDiffPayload,
  type PlacementsDocument,
  type JsonValue,
  type PlacementsDraftPayload,
  type PlacementsDraftSaveRequest,
  type PlacementsPayload,
  type PlacementsPublishRequest,
  type PlacementRollbackRequest,
} from '../../shared';
import { PLACEMENTS_BODY_LIMIT } from '../../shared/placements-limits';
import { ApiError, useApiClient, useSession } from '../core';
import { useApi } from '../app/use-api';
import { PageHeading } from '../layout/page-heading';
import { OperatorsOnlyPage } from './operators-only-page';
import { PageStatus } from './page-status';
import { PlacementsContents } from './placements-contents';
import { RefusalSummary } from './refusal-summary';
import { UNREAD_INPUT_ATTRIBUTE } from './placement-order-fields';
import { blockingSummary } from './placements-blocking';
import { addSlot, asDocument, slotsAt } from './placements-draft';
import { changeSlotFollowingId } from './placements-renamed-id';
import { locationIds } from './placements-slot-ids';
import { useToolbarClearance } from './placements-toolbar-clearance';
import { addFormSlot, changeFormSlot, formSlotsOf } from './placements-form-slots';
import { PlacementsForms } from './placements-forms';
import { draftSavedSinceMessage, PlacementRevisions, PlacementsDiff, rollbackQuestion } from './placements-history';
import { importOutcome, PlacementsImport } from './placements-import';
import { PlacementsLocation } from './placements-location';
import { PlacementsPreview } from './placements-preview';
import { countOf } from './count-in-words';
import { useUnsavedChanges } from '../app/unsaved-changes';
import { keptEditsMessage, takeKeptEdits, useKeepEditsWhenSessionChanges } from './placements-kept-edits';

/**
 * The placements editor, for operators: the draft's slots per location (add, remove, priority, id, before and after,
 * "Shown when", props from the component's schema), its form slots per resource (placements-forms.tsx), an import of a REMOTES_CONFIG file into the draft, its problems as the server finds them, the changes publishing would make, a location
 * rendered as a chosen account would see it (placements-preview.tsx), publishing, and the revisions with a way back
 * to each (docs/operators/placements-editor.md). Staff without placements:edit in the current tenant get "operators
 * only".
 */
export function PlacementsPage() {
  const { user } = useSession();
  return userMay(user, PLACEMENTS_EDIT) ? <PlacementsEditor /> : <OperatorsOnlyPage what="Placements are" />;
}

interface Outcome {
  message: string;
  refused: boolean;
  problems: readonly string[];
  /** Where focus goes with a refusal: its summary, or the box to fix (refuseUnreadInput focused it). */
  focusSummary?: boolean;
}

/** A save or publish refused by the page itself: a box of the editor holds what the draft cannot take yet. */
class UnreadInputError extends Error {}

/** What a request of the editor was doing, for the words of its refusal. */
type During = 'save' | 'publish' | 'rollback' | 'import';

/**
 * A 413 in the editor's words, naming the server's limit (a proxy's 413, without the server's JSON, is said so too):
 * only a save (a publish saves first) and an import send a document.
 */
function tooLargeMessage(during: During): string {
  const what = during === 'import' ? 'the file' : 'the draft';
  return (
    `Not ${during === 'import' ? 'imported' : 'saved'}: ${what} is larger than ${PLACEMENTS_BODY_LIMIT} of JSON, the ` +
    'most the server takes in one request. Make it smaller (fewer slots, shorter props), then try again.'
  );
}

function PlacementsEditor() {
  const client = useApiClient();
  const { expire, user } = useSession();
  const overview = useApi<PlacementsPayload>(PLACEMENTS_API_PATH);
  const components = useApi<PlacementComponentsPayload>(`${PLACEMENTS_API_PATH}/components`);
  const [document, setDocument] = useState<PlacementsDocument | null>(null);
  const [problems, setProblems] = useState<readonly PlacementProblem[]>([]);
  const [preview, setPreview] = useState<PlacementPreview>({});
  /** The saved draft against the published revision; null until loaded. */
  const [diff, setDiff] = useState<PlacementsDiffPayload | null>(null);
  const [revisions, setRevisions] = useState<PlacementRevisionsPayload['revisions']>([]);
  const [dirty, setDirty] = useState(false);
  // Edits not saved into the draft are asked about before a navigation, a reload or a tenant switch drops them.
  useUnsavedChanges(dirty);
  /** The saved draft's `updatedAt` the editor's draft is made from: a save says it, and is refused if it moved. */
  const [version, setVersion] = useState<string | null>(null);
  /** A save was refused because the draft was saved elsewhere since: the page offers to reload it. */
  const [stale, setStale] = useState(false);
  /** Why the saved draft cannot be edited (saved before the server refused such frames), or null. */
  const [brokenFrame, setBrokenFrame] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const busy = useRef(false);
  const toolbar = useToolbarClearance();
  /** Why this account may not change placements (it lacks placements:edit in another tenant), or null. */
  const changesRefused = overview.data?.changesRefused ?? null;
  const alert = useRef<HTMLDivElement>(null);
  const editor = useRef<HTMLFieldSetElement>(null);

  const loadHistory = useCallback(async () => {
    const [compared, list] = await Promise.all([
      client.get<PlacementsDiffPayload>(`${PLACEMENTS_API_PATH}/diff`),
      client.get<PlacementRevisionsPayload>(`${PLACEMENTS_API_PATH}/revisions`),
    ]);
    setDiff(compared);
    setRevisions(list.revisions);
  }, [client]);

  useKeepEditsWhenSessionChanges(() => (dirty && document ? { document, basedOn: version } : null));

  useEffect(() => {
    if (overview.status !== 'ready' || document !== null) return;
    const saved = overview.data.draft;
    // Edits kept when the session ended or changed under this page come back on top of the draft they were made from.
    const kept = user ? takeKeptEdits(user.username) : null;
    setDocument(kept?.document ?? asDocument(saved.document));
    setBrokenFrame(kept ? null : placementsFrameProblem(saved.document));
    setVersion(kept ? kept.basedOn : saved.updatedAt);
    setDirty(kept !== null);
    if (kept) setOutcome({ message: keptEditsMessage(kept.basedOn === saved.updatedAt), refused: false, problems: [] });
    setProblems(overview.data.problems);
    setPreview(overview.data.preview);
    loadHistory().catch(() => undefined);
  }, [overview, document, loadHistory, user]);

  useEffect(() => {
    if (outcome?.refused && outcome.focusSummary !== false) alert.current?.focus();
  }, [outcome]);

  /** Runs one request at a time; a refusal is announced with its problems, a 401 ends the session. */
  const act = async (work: () => Promise<string>, during: During = 'save') => {
    if (busy.current) return;
    busy.current = true;
    try {
      setOutcome({ message: await work(), refused: false, problems: [] });
    } catch (error) {
      if (error instanceof UnreadInputError) {
        setOutcome({ message: error.message, refused: true, problems: [], focusSummary: false });
        return;
      }
      const refusal = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
      if (refusal.status === 401) expire();
      const message = refusal.savedDraft
        ? draftSavedSinceMessage(refusal.savedDraft, during === 'import' ? 'save' : during)
        : refusal.status === 413
          ? tooLargeMessage(during)
          : refusal.message;
      setOutcome({ message, refused: true, problems: refusal.problems });
    } finally {
      busy.current = false;
    }
  };

  /** Shows a draft the server answered (loaded, imported, rolled back to) in place of the editor's. */
  const showDraft = async (answer: PlacementsDraftPayload) => {
    setDocument(asDocument(answer.draft.document));
    setBrokenFrame(placementsFrameProblem(answer.draft.document));
    setVersion(answer.draft.updatedAt);
    setProblems(answer.problems);
    setPreview(answer.preview);
    setDirty(false);
    setStale(false);
    await loadHistory();
  };

  /**
   * A text box of the editor holding what the draft cannot take yet ("Shown when" that is not JSON, a priority that is
   * not a whole number, an id that is none) refuses a save or publish, with focus on it: saving would drop what it
   * shows without a word. A box showing what the draft holds, refused by the server (a priority written as text), is
   * marked but not held: the server saves it as a problem of its slot, as it would be saved without this page.
   */
  const refuseUnreadInput = (): void => {
    const invalid = editor.current?.querySelector<HTMLElement>(`[${UNREAD_INPUT_ATTRIBUTE}]`);
    if (!invalid) return;
    invalid.focus();
    throw new UnreadInputError(
      'Not saved: a box of the editor holds what the draft cannot take yet (marked beside it). Fix it or empty it, ' +
        'then save again.',
    );
  };

  const save = async (
    next: PlacementsDocument,
  ): Promise<{ problems: readonly PlacementProblem[]; version: string | null }> => {
    refuseUnreadInput();
    const request: PlacementsDraftSaveRequest = { document: next as JsonValue, expectedUpdatedAt: version };
    const saved = await client
      .put<PlacementsDraftPayload>(`${PLACEMENTS_API_PATH}/draft`, request)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) setStale(true);
        throw error;
      });
    setVersion(saved.draft.updatedAt);
    setProblems(saved.problems);
    setPreview(saved.preview);
    setDirty(false);
    await loadHistory();
    return { problems: saved.problems, version: saved.draft.updatedAt };
  };

  if ([overview, components].some((state) => state.status === 'error' && state.error.status === 403)) {
    return <OperatorsOnlyPage what="Placements are" />;
  }
  if (overview.status === 'error') return <PageStatus status="error" error={overview.error} retry={overview.reload} />;
  if (components.status === 'error') {
    return <PageStatus status="error" error={components.error} retry={components.reload} />;
  }
  if (document === null || components.status !== 'ready') return <PageStatus status="loading" />;

  const edit = (next: PlacementsDocument) => {
    setDocument(next);
    setDirty(true);
  };
  const blocking = blockingSummary(problems);
  const elsewhere = problems.filter((problem) => problem.index === null);

  return (
    <div className="page placements-page">
      <PageHeading title="Placements" />
      <p className="muted">
        Slots placed by operators, after those of code and of REMOTES_CONFIG at each location. Edit the draft, save it
        to see its problems and changes, then publish: every host serves a revision within seconds.
      </p>
      {changesRefused !== null && (
        <p className="notice notice--info" data-placements-read-only>
          {changesRefused} You can read the draft, its changes and the revisions here, and export the published one;
          their rules count the tenants you do not belong to instead of naming them.
        </p>
      )}
      {/* Kept in view while the page scrolls: the editor is long (every location), its actions are here only. */}
      <div className="placements__toolbar" ref={toolbar}>
        <div className="placements__actions" hidden={changesRefused !== null}>
          <button
            type="button"
            className="button button--secondary"
            onClick={() =>
              void act(async () => {
                const { problems: found } = await save(document);
                return found.length === 0
                  ? 'Draft saved: no problem.'
                  : `Draft saved with ${countOf(found.length, 'problem')}.`;
              })
            }
          >
            Save draft
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() =>
              void act(async () => {
                refuseUnreadInput();
                // The draft this page shows, and nothing saved since by anyone else (409 otherwise: reload it).
                const request: PlacementsPublishRequest = {
                  expectedUpdatedAt: dirty ? (await save(document)).version : version,
                };
                const revision = await client
                  .post<{ number: number }>(`${PLACEMENTS_API_PATH}/publish`, request)
                  .catch((error: unknown) => {
                    if (error instanceof ApiError && error.savedDraft) setStale(true);
                    throw error;
                  });
                await loadHistory();
                return `Revision ${revision.number} published.`;
              }, 'publish')
            }
          >
            Publish
          </button>
        </div>
        <p role="status" className="form__status" data-placements-status>
          {outcome && !outcome.refused ? outcome.message : ''}
          {dirty ? ' Unsaved changes.' : ''}
        </p>
      </div>
      <p>
        <a className="button button--ghost" href={`${PLACEMENTS_API_PATH}/export`} download>
          Export the published revision
        </a>
      </p>
      {outcome?.refused && (
        <RefusalSummary
          message={outcome.message}
          problems={outcome.problems}
          ref={alert}
          mark="data-placements-refused"
        />
      )}
      {stale && (
        <p className="placements__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() =>
              void act(async () => {
                await showDraft(await client.get<PlacementsPayload>(PLACEMENTS_API_PATH));
                return 'The saved draft is shown: make your changes again.';
              })
            }
          >
            Reload the saved draft (drops your changes)
          </button>
        </p>
      )}
      {blocking !== null && (
        <p className="form-error" data-placements-blocking>
          {blocking}
        </p>
      )}
      {elsewhere.length > 0 && (
        <ul className="form-error" data-placements-elsewhere>
          {elsewhere.map((problem) => (
            <li key={problem.message}>
              {problem.message}
              {problem.blocking ? '' : ' (a warning: it does not stop a publish)'}
            </li>
          ))}
        </ul>
      )}
      {diff !== null && <PlacementsDiff changes={diff.changes} />}
      {brokenFrame !== null ? (
        <div className="form-error" role="alert" data-placements-broken>
          <p>The saved draft cannot be shown here: {brokenFrame}</p>
          <p>Import a placements document into the draft below, or roll back to a revision.</p>
        </div>
      ) : (
        // Disabled as a whole for someone who may not change placements (what they would change is refused anyway).
        <fieldset className="placements__editable" disabled={changesRefused !== null} ref={editor}>
          <PlacementsContents document={document} problems={problems} />
          <PlacementsPreview document={document} />
          {SlotLocation.cases().map((location) => {
            const ids = locationIds(document, location.value, preview[location.value]);
            return (
              <PlacementsLocation
                key={location.value}
                location={location.value}
                isPublic={location.isPublic()}
                slots={slotsAt(document, location.value)}
                problems={problems}
                preview={preview[location.value]}
                ids={ids}
                components={components.data}
                change={(at, change) => edit(changeSlotFollowingId(document, at, change, ids))}
                add={(remote, component) => edit(addSlot(document, remote, location.value, component))}
              />
            );
          })}
          <PlacementsForms
            formSlots={formSlotsOf(document)}
            problems={problems}
            components={components.data}
            change={(at, change) => edit(changeFormSlot(document, at, change))}
            add={(remote, resource, component, position) =>
              edit(addFormSlot(document, remote, resource, component, position))
            }
          />
        </fieldset>
      )}
      <fieldset className="placements__editable" disabled={changesRefused !== null}>
        <PlacementsImport
          importJson={(json) =>
            void act(async () => {
              if (dirty && !window.confirm('The import replaces the draft and its unsaved changes. Import?')) return '';
              // Refused (409, reload offered) when the draft was saved since this page loaded it, as a save is.
              const answer = await client
                .post<PlacementsDraftPayload>(
                  `${PLACEMENTS_API_PATH}/import?expectedUpdatedAt=${encodeURIComponent(version ?? '')}`,
                  json,
                )
                .catch((error: unknown) => {
                  if (error instanceof ApiError && error.savedDraft) setStale(true);
                  throw error;
                });
              await showDraft(answer);
              return importOutcome(answer);
            }, 'import')
          }
        />
        <PlacementRevisions
          revisions={revisions}
          rollback={(number) =>
            void act(async () => {
              // Changes of the saved draft not published yet (or unreadable ones) go with it: the question names them.
              const savedChanges = diff !== null && (diff.changes === null || diff.changes.length > 0);
              if (!window.confirm(rollbackQuestion(number, { savedChanges, unsaved: dirty }))) return '';
              // The saved draft the question was about: one saved since is not replaced unseen (409, reload offered).
              const request: PlacementRollbackRequest = { revision: number, expectedUpdatedAt: version };
              const revision = await client
                .post<{ number: number }>(`${PLACEMENTS_API_PATH}/rollback`, request)
                .catch((error: unknown) => {
                  if (error instanceof ApiError && error.savedDraft) setStale(true);
                  throw error;
                });
              await showDraft(await client.get<PlacementsPayload>(PLACEMENTS_API_PATH));
              return `Rolled back to revision ${number}: revision ${revision.number} is in force.`;
            }, 'rollback')
          }
        />
      </fieldset>
    </div>
  );
}

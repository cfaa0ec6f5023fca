/*
 * Above 300 lines for one reason: the editor's state is one draft (load, edit, save, publish, import, roll back) whose
 * actions must see the same version and unsaved edits; the page's layout reads it (placements-page.tsx).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  PLACEMENTS_API_PATH,
  placementsFrameProblem,
  sameDraftVersion,
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
} from '../../../shared';
import { PLACEMENTS_BODY_LIMIT } from '../../../shared/placements-limits';
import { ApiError, useApiClient, useSession } from '../../core';
import { useApi } from '../../hooks/use-api';
import { useUnsavedChanges } from '../../hooks/unsaved-changes';
import type { ConfirmQuestion } from '../../layout/confirm-question';
import { countOf } from '../common/count-in-words';
import { UNREAD_INPUT_ATTRIBUTE } from './placement-order-fields';
import { asDocument } from './placements-draft';
import { draftSavedSinceMessage, rollbackQuestion } from './placements-history';
import { importOutcome, importQuestion } from './placements-import';
import { keptEditsMessage, takeKeptEdits, useKeepEditsWhenSessionChanges } from './placements-kept-edits';
import { useToolbarClearance } from './placements-toolbar-clearance';

export interface Outcome {
  message: string;
  refused: boolean;
  problems: readonly string[];
  /** Where focus goes with a refusal: its summary, or the box to fix (refuseUnreadInput focused it). */
  focusSummary?: boolean;
  /**
   * The page's status takes the focus: after a confirmed rollback or import, whose button's table or text was
   * replaced under it, the keyboard user is told what is in force now and goes on from there.
   */
  focusStatus?: boolean;
  /** Refused for a box the draft cannot take yet (UnreadInputError): said until no such box is left. */
  unreadInput?: boolean;
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

/**
 * The placements editor's state and what it asks the server (PlacementsPage lays it out): the draft being edited,
 * its problems, preview, changes and revisions, and the save, publish, reload, import and rollback, one request at a
 * time, each ending in an outcome the page announces.
 */
export interface PlacementsEditorOptions {
  /**
   * Gives the focus to a box of the editor that refused a save, showing its location first when another is shown
   * (the page shows one at a time). Without it, the box is focused where it is.
   */
  reveal?(element: HTMLElement): void;
  /** Asks before a rollback, or an import over unsaved changes, in the app's dialog; resolves to the answer. */
  ask(question: ConfirmQuestion): Promise<boolean>;
}

export function usePlacementsEditor({ reveal, ask }: PlacementsEditorOptions) {
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
  const [inForce, setInForce] = useState(0);
  const [dirty, setDirty] = useState(false);
  // Edits not saved into the draft are asked about before a navigation, a reload or a tenant switch drops them.
  useUnsavedChanges(dirty);
  /** The saved draft's `updatedAt` the editor's draft is made from: a save says it, and is refused if it moved. */
  const [version, setVersion] = useState<string | null>(null);
  /** The comparison is being read again for the Publish question, which says so meanwhile. */
  const [comparing, setComparing] = useState(false);
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
  const status = useRef<HTMLParagraphElement>(null);
  const editor = useRef<HTMLFieldSetElement>(null);

  const loadRevisions = useCallback(async () => {
    const list = await client.get<PlacementRevisionsPayload>(`${PLACEMENTS_API_PATH}/revisions`);
    setRevisions(list.revisions);
    setInForce(list.inForce);
  }, [client]);

  const loadHistory = useCallback(async () => {
    const [compared] = await Promise.all([
      client.get<PlacementsDiffPayload>(`${PLACEMENTS_API_PATH}/diff`),
      loadRevisions(),
    ]);
    setDiff(compared);
  }, [client, loadRevisions]);

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
    else if (outcome?.focusStatus) status.current?.focus();
  }, [outcome]);

  /**
   * Runs one request at a time; a refusal is announced with its problems, a 401 ends the session. With `refusedAt`, a
   * refusal is given to it to say where the request was made (the import box) rather than at the page's top, and the
   * page's status of an earlier action is cleared: left, it would read as this one's outcome.
   */
  const act = async (
    work: () => Promise<string>,
    during: During = 'save',
    focusStatus = false,
    refusedAt?: (message: string) => void,
  ) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const message = await work();
      // Nothing done (the question was declined): the focus is back on the button that asked.
      setOutcome({ message, refused: false, problems: [], focusStatus: focusStatus && message !== '' });
    } catch (error) {
      if (error instanceof UnreadInputError) {
        setOutcome({ message: error.message, refused: true, problems: [], focusSummary: false, unreadInput: true });
        return;
      }
      const refusal = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
      if (refusal.status === 401) expire();
      const message = refusal.savedDraft
        ? draftSavedSinceMessage(refusal.savedDraft, during === 'import' ? 'save' : during)
        : refusal.status === 413
          ? tooLargeMessage(during)
          : refusal.message;
      if (refusedAt) {
        setOutcome(null);
        refusedAt([message, ...refusal.problems].join(' '));
        return;
      }
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
    if (reveal) reveal(invalid);
    else invalid.focus();
    throw new UnreadInputError(
      'Not saved: a box of the editor holds what the draft cannot take yet (marked beside it). Fix it or empty it, ' +
        'then save again.',
    );
  };

  /**
   * What Publish checks before it asks for confirmation: a box the draft cannot take yet refuses it at once, with
   * focus on that box, rather than after a question whose answer could only be refused. True when so refused.
   */
  const refusedForUnreadInput = (): boolean => {
    try {
      refuseUnreadInput();
      return false;
    } catch (error) {
      if (!(error instanceof UnreadInputError)) throw error;
      setOutcome({ message: error.message, refused: true, problems: [], focusSummary: false, unreadInput: true });
      return true;
    }
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

  // The refusal for a box the draft could not take goes once no such box is left (fixed, emptied, or its slot removed):
  // it would blame a box that is not there.
  useEffect(() => {
    if (outcome?.unreadInput && !editor.current?.querySelector(`[${UNREAD_INPUT_ATTRIBUTE}]`)) setOutcome(null);
  }, [document, outcome]);

  const edit = (next: PlacementsDocument) => {
    setDocument(next);
    setDirty(true);
  };

  const saveDraft = (current: PlacementsDocument) =>
    void act(async () => {
      const { problems: found } = await save(current);
      return found.length === 0 ? 'Draft saved: no problem.' : `Draft saved with ${countOf(found.length, 'problem')}.`;
    });

  /**
   * A publish or rollback refused for what moved since this page read it: a draft saved elsewhere (reload offered),
   * or a revision published since (the comparison and the revisions are read again, so the page shows it).
   */
  const refusedAsMoved = (error: unknown): never => {
    if (error instanceof ApiError && error.savedDraft) setStale(true);
    // Either way the revisions are read again: a draft saved elsewhere often comes with a revision (a colleague's
    // rollback makes both), and the table would go on marking the old one in force.
    if (error instanceof ApiError && error.status === 409) loadHistory().catch(() => undefined);
    throw error;
  };

  /**
   * Reads the saved draft's comparison again, so a question about it counts what is saved and published now (the page
   * does not poll): a colleague's publish since shows in its counts. A draft saved since this page read it throws the
   * refusal a publish or rollback would get (409, the reload offered): its changes are not those the page shows. A
   * host of an older release answers without `draft`: nothing to compare, the server checks the change anyway.
   */
  const compareAgain = async (): Promise<PlacementsDiffPayload> => {
    const compared = await client.get<PlacementsDiffPayload>(`${PLACEMENTS_API_PATH}/diff`);
    setDiff(compared);
    const saved = (compared as Partial<PlacementsDiffPayload>).draft;
    if (saved !== undefined && !sameDraftVersion(saved.updatedAt, version)) {
      setStale(true);
      // The revisions too, as for a refusal of the server (refusedAsMoved): whatever moved the draft may have
      // published.
      loadRevisions().catch(() => undefined);
      throw new ApiError(409, 'conflict', 'The draft was saved since.', {}, null, [], null, null, saved);
    }
    return compared;
  };

  /**
   * As the Publish question opens: its counts read again (it says they load meanwhile); a draft saved since closes it
   * (`close`) and says so, as the publish would be refused. A failed read leaves the question as it was.
   */
  const compareBeforePublish = async (close: () => void): Promise<void> => {
    setComparing(true);
    try {
      await compareAgain();
    } catch (error) {
      if (!(error instanceof ApiError && error.savedDraft)) return;
      close();
      setOutcome({ message: draftSavedSinceMessage(error.savedDraft, 'publish'), refused: true, problems: [] });
    } finally {
      setComparing(false);
    }
  };

  const publish = (current: PlacementsDocument) =>
    void act(async () => {
      refuseUnreadInput();
      // The draft this page shows, and nothing saved since by anyone else (409 otherwise: reload it).
      // And against the revision it compares the draft with: one published since is named, not published over.
      const request: PlacementsPublishRequest = {
        expectedUpdatedAt: dirty ? (await save(current)).version : version,
        ...(diff ? { expectedRevision: diff.revision } : {}),
      };
      const revision = await client
        .post<{ number: number }>(`${PLACEMENTS_API_PATH}/publish`, request)
        .catch(refusedAsMoved);
      await loadHistory();
      return `Revision ${revision.number} published.`;
    }, 'publish');

  const reloadSavedDraft = () =>
    void act(async () => {
      await showDraft(await client.get<PlacementsPayload>(PLACEMENTS_API_PATH));
      return 'The saved draft is shown: make your changes again.';
    });

  /**
   * Imports a file into the draft; a refusal is given to `refused`, to be said at the import box. The import replaces
   * the saved draft, which may hold changes not published yet (another operator's too): as a rollback, it reads the
   * comparison again and asks first when those, or this page's unsaved changes, would be lost.
   */
  const importJson = (json: JsonValue, refused: (message: string) => void) =>
    void act(
      async () => {
        const compared = await compareAgain();
        const savedChanges = compared.changes === null || compared.changes.length > 0;
        if ((savedChanges || dirty) && !(await ask(importQuestion({ savedChanges, unsaved: dirty })))) return '';
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
      },
      'import',
      true,
      refused,
    );

  const rollback = (number: number) =>
    void act(
      async () => {
        // Changes of the saved draft not published yet (or unreadable ones) go with it: the question names them, as
        // saved now.
        const compared = await compareAgain();
        const savedChanges = compared.changes === null || compared.changes.length > 0;
        const question: ConfirmQuestion = {
          title: `Roll back to revision ${number}?`,
          body: rollbackQuestion(number, { savedChanges, unsaved: dirty }),
          confirmLabel: 'Roll back',
        };
        if (!(await ask(question))) return '';
        // The saved draft the question was about: one saved since is not replaced unseen (409, reload offered).
        const request: PlacementRollbackRequest = {
          revision: number,
          expectedUpdatedAt: version,
          expectedRevision: compared.revision,
        };
        const revision = await client
          .post<{ number: number }>(`${PLACEMENTS_API_PATH}/rollback`, request)
          .catch(refusedAsMoved);
        await showDraft(await client.get<PlacementsPayload>(PLACEMENTS_API_PATH));
        return `Rolled back to revision ${number}: revision ${revision.number} is in force.`;
      },
      'rollback',
      true,
    );

  return {
    overview,
    components,
    document,
    problems,
    preview,
    diff,
    comparing,
    revisions,
    inForce,
    dirty,
    stale,
    brokenFrame,
    outcome,
    changesRefused,
    refs: { toolbar, alert, status, editor },
    edit,
    saveDraft,
    publish,
    compareBeforePublish,
    refusedForUnreadInput,
    reloadSavedDraft,
    importJson,
    forgetOutcome: () => setOutcome(null),
    rollback,
  };
}

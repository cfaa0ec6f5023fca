import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  PLACEMENTS_API_PATH,
  PLACEMENTS_EDIT,
  PLACEMENTS_PREVIEW_PATH,
  userMay,
  SlotLocation,
  type PlacementPreviewChoices,
} from '../../../shared';
import { useSession } from '../../core';
import { useApi } from '../../hooks/use-api';
import { ConfirmDialog, useConfirmDialog } from '../../layout/confirm-dialog';
import { useConfirmQuestion } from '../../layout/confirm-question';
import { PageHeading } from '../../layout/page-heading';
import { OperatorsOnlyPage } from '../common/operators-only-page';
import { PageStatus } from '../common/page-status';
import { RefusalSummary } from '../common/refusal-summary';
import { blockingSummary } from './placements-blocking';
import { chosenLocation, FORM_SLOTS, goneLocationsOf, LOCATION_PARAM } from './placements-chosen-location';
import { PlacementsContents } from './placements-contents';
import { addSlot, slotsAt } from './placements-draft';
import { addFormSlot, changeFormSlot, formSlotsOf } from './placements-form-slots';
import { PlacementsForms } from './placements-forms';
import { PlacementRevisions, PlacementsDiff } from './placements-history';
import { PlacementsImport } from './placements-import';
import { PlacementsLocation } from './placements-location';
import { PreviewLoading } from './placements-preview-heading';
import { nothingToPublish, publishQuestion } from './placements-publish-question';
import { RuleChoicesContext } from './placements-rule-choices';
import { changeSlotFollowingId } from './placements-renamed-id';
import { locationIds } from './placements-slot-ids';
import { usePlacementsEditor } from './use-placements-editor';

// Its own chunk: the editor's part that renders remotes, below the locations, loaded after them.
const PlacementsPreview = lazy(() =>
  import(/* webpackChunkName: "tool-page-placements-preview" */ './placements-preview').then((module) => ({
    default: module.PlacementsPreview,
  })),
);

/**
 * The placements editor, for operators (docs/operators/placements-editor.md): the draft's slots per location and its
 * form slots per resource (placements-forms.tsx), a REMOTES_CONFIG file's import, the server's problems, the changes a
 * publish makes, a location as a chosen account sees it (placements-preview.tsx), publishing, the revisions with a way
 * back to each. Staff without placements:edit in the current tenant get "operators only".
 */
export function PlacementsPage() {
  const { user } = useSession();
  return userMay(user, PLACEMENTS_EDIT) ? <PlacementsEditor /> : <OperatorsOnlyPage what="Placements are" />;
}

function PlacementsEditor() {
  const question = useConfirmQuestion();
  const {
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
    refs,
    edit,
    saveDraft,
    publish,
    compareBeforePublish,
    refusedForUnreadInput,
    reloadSavedDraft,
    importJson,
    forgetOutcome,
    rollback,
  } = usePlacementsEditor({ reveal: (element) => revealAndFocus(element), ask: question.ask });
  const [params, setParams] = useSearchParams();
  const asked = params.get(LOCATION_PARAM);
  const chosen = document === null ? null : chosenLocation(asked, document);
  // An address naming no location (`?location=dashboard-nowhere`, an old link) is replaced by the one shown: kept, it
  // said one thing while the page showed another, and was copied as a link to it.
  useEffect(() => {
    if (asked !== null && chosen !== null && asked !== chosen) {
      setParams((current) => ({ ...Object.fromEntries(current), [LOCATION_PARAM]: chosen }), { replace: true });
    }
  }, [asked, chosen, setParams]);
  // What takes the focus once the location shown changes: its heading when picked from the map, or a box a save
  // refused at a location not shown (usePlacementsEditor's reveal).
  const focusOnShow = useRef<HTMLElement | string | null>(null);
  useEffect(() => {
    const target = focusOnShow.current;
    if (target === null || chosen === null) return;
    focusOnShow.current = null;
    (typeof target === 'string' ? window.document.getElementById(target) : target)?.focus();
  }, [chosen]);
  const revealAndFocus = (element: HTMLElement) => {
    const section = element.closest<HTMLElement>('[data-placements-location], [data-placements-forms]');
    const location = section?.dataset.placementsLocation ?? FORM_SLOTS;
    if (!section?.hidden) {
      element.focus();
      return;
    }
    focusOnShow.current = element;
    setParams({ [LOCATION_PARAM]: location });
  };
  // The tenants and flags the rule builders and the preview offer: the preview's choices, read once for all of them.
  const choices = useApi<PlacementPreviewChoices>(PLACEMENTS_PREVIEW_PATH);
  const publishDialog = useConfirmDialog();
  const publishButton = useRef<HTMLButtonElement>(null);
  // Whether the preview's heading had the focus as its chunk arrived (placements-preview-heading.tsx).
  const previewHeadingFocus = useRef(false);
  // The location a link to the preview was followed from: a new object per press, which the preview takes.
  const [previewLinked, setPreviewLinked] = useState<{ location: string } | null>(null);

  if ([overview, components].some((state) => state.status === 'error' && state.error.status === 403)) {
    return <OperatorsOnlyPage what="Placements are" />;
  }
  if (overview.status === 'error') return <PageStatus status="error" error={overview.error} retry={overview.reload} />;
  if (components.status === 'error') {
    return <PageStatus status="error" error={components.error} retry={components.reload} />;
  }
  if (document === null || components.status !== 'ready') return <PageStatus status="loading" />;

  const blocking = blockingSummary(problems);
  const compared = diff === null || comparing ? undefined : diff.changes;
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
          their rules count the tenants you do not belong to instead of naming them, and the props of a slot shown in
          those tenants only are not shown.
        </p>
      )}
      {/* Kept in view while the page scrolls: the editor is long (every location), its actions are here only. */}
      <div className="placements__toolbar" ref={refs.toolbar}>
        <div className="placements__actions" hidden={changesRefused !== null}>
          <button type="button" className="button button--secondary" onClick={() => saveDraft(document)}>
            Save draft
          </button>
          <button
            type="button"
            className="button button--primary"
            ref={publishButton}
            onClick={() => {
              if (refusedForUnreadInput()) return;
              publishDialog.open();
              void compareBeforePublish(publishDialog.close);
            }}
          >
            Publish
          </button>
        </div>
        <p role="status" className="form__status" data-placements-status ref={refs.status} tabIndex={-1}>
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
          ref={refs.alert}
          mark="data-placements-refused"
        />
      )}
      {stale && (
        <p className="placements__actions">
          <button type="button" className="button button--secondary" onClick={reloadSavedDraft}>
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
        // Disabled as a whole for someone who may not change placements (what they would change is refused anyway). A
        // box for that alone, no group: a screen reader announced a group with no name before the map's first link.
        <RuleChoicesContext.Provider value={choices.data}>
          <fieldset className="placements__editable" disabled={changesRefused !== null} ref={refs.editor} role="none">
            <PlacementsContents
              document={document}
              problems={problems}
              preview={preview}
              chosen={chosen ?? ''}
              onChoose={(location) => {
                focusOnShow.current = location === FORM_SLOTS ? 'placements-forms' : `placements-${location}`;
              }}
            />
            {[
              ...SlotLocation.cases().map((location) => ({
                at: location.value,
                isPublic: location.isPublic(),
                gone: false,
              })),
              // Where an upgrade renamed or removed a location the draft still places slots: listed apart, to mend.
              ...goneLocationsOf(document).map((at) => ({ at, isPublic: false, gone: true })),
            ].map(({ at, isPublic, gone }) => {
              const ids = locationIds(document, at, preview[at]);
              return (
                <PlacementsLocation
                  key={gone ? `gone:${at}` : at}
                  location={at}
                  hidden={at !== chosen}
                  isPublic={isPublic}
                  gone={gone}
                  slots={slotsAt(document, at)}
                  problems={problems}
                  preview={preview[at]}
                  ids={ids}
                  components={components.data}
                  change={(index, change) => edit(changeSlotFollowingId(document, index, change, ids))}
                  add={gone ? undefined : (remote, component) => edit(addSlot(document, remote, at, component))}
                  outcome={outcome}
                  previewHere={() => setPreviewLinked({ location: at })}
                />
              );
            })}
            <PlacementsForms
              hidden={chosen !== FORM_SLOTS}
              formSlots={formSlotsOf(document)}
              outcome={outcome}
              problems={problems}
              components={components.data}
              change={(at, change) => edit(changeFormSlot(document, at, change))}
              add={(remote, resource, component, position) =>
                edit(addFormSlot(document, remote, resource, component, position))
              }
            />
            <Suspense fallback={<PreviewLoading focus={previewHeadingFocus} />}>
              <PlacementsPreview
                headingFocus={previewHeadingFocus}
                document={document}
                location={chosen === FORM_SLOTS ? undefined : (chosen ?? undefined)}
                linked={previewLinked}
              />
            </Suspense>
          </fieldset>
        </RuleChoicesContext.Provider>
      )}
      <fieldset className="placements__editable" disabled={changesRefused !== null} role="none">
        <PlacementsImport importJson={importJson} forgetOutcome={forgetOutcome} />
        <PlacementRevisions revisions={revisions} inForce={inForce} rollback={rollback} />
      </fieldset>
      <ConfirmDialog
        control={publishDialog}
        title="Publish the draft?"
        confirmLabel="Publish"
        tone="primary"
        confirmOffered={!nothingToPublish(compared, dirty)}
        onConfirm={() => {
          publishDialog.close();
          publish(document);
        }}
        // Back on Publish after either answer (the browser does so too; jsdom and older engines do not): the outcome
        // is announced from the toolbar beside it, and a refusal takes the focus to its summary.
        onClose={() => publishButton.current?.focus()}
      >
        <p data-placements-publish-question>{publishQuestion(compared, dirty)}</p>
        {blocking !== null && <p className="form-error">{blocking}</p>}
      </ConfirmDialog>
      {question.dialog}
    </div>
  );
}

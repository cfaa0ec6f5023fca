import { useEffect, useState } from 'react';
import {
  OPERATOR_ROLE,
  PLACEMENTS_PREVIEW_PATH,
  SlotLocation,
  STAFF_ROLES,
  type PlacementsDocument,
  type PlacementsPreviewPayload,
  type PlacementsPreviewRequest,
  type PreviewedSlot,
} from '../../../shared';
import { partHiddenIn } from '../../../shared/placements-hidden-tenants';
import { ApiError, createSlotStatus, LocationSlots, SlotRuntimeProvider, useApiClient, useSession } from '../../core';
import { countOf } from '../common/count-in-words';
import { firstPlacedLocation } from './placements-chosen-location';
import { PREVIEW_HEADING_ID, PreviewHeading, type PreviewHeadingFocus } from './placements-preview-heading';
import { useRuleChoices } from './placements-rule-choices';
import { unfinishedRuleSlots, type UnfinishedRuleSlot } from './placements-unfinished-rule';

/** How long the editor waits after the last change before asking for a preview: typing asks once, not per key. */
const PREVIEW_DELAY_MS = 300;

const FAILURE_HINT = 'Shown in the placements preview only: in production, a failing slot shows nothing.';

export interface PlacementsPreviewProps {
  /**
   * The editor's document, saved or not: the preview follows every change. One with rules counting tenants (as the
   * read-only page shows them) is not sent: the saved draft is previewed.
   */
  document: PlacementsDocument;
  /** The location the editor shows: the preview follows it when it changes (its own choice stays free between). */
  location?: string;
  /**
   * The location a link to the preview was followed from (`See <location> as a chosen account would`), a new object
   * per press: the preview takes it, whatever its own choice was, so what it shows is what the link said.
   */
  linked?: { location: string } | null;
  /** Whether the heading shown while this chunk loaded had the focus: the loaded heading then takes it. */
  headingFocus: PreviewHeadingFocus;
}

/**
 * An answer, with the request (`key`) and the account it was asked for (`asked`: the request without the document):
 * the status says "Previewing…" only while the account asked for changes, not while the draft does.
 */
type PreviewState =
  | { key: string; asked: string; status: 'ready'; payload: PlacementsPreviewPayload }
  | { key: string; asked: string; status: 'error'; message: string };

/**
 * One location as a chosen account would see it with the editor's document published: its slots rendered with the
 * real remote components, each in the host's slot boundary (a failing or missing one shows the boundary's
 * placeholder, the editor carries on), and every slot placed there with its outcome (shown, hidden by which rule,
 * left out and why). The server computes it as it computes `/meta` (POST /api/placements/preview); the slots render
 * with their own slot status, so they never count in the page's failed-slots notice, inspector or slot events.
 */
export function PlacementsPreview({ document, location: shown, linked, headingFocus }: PlacementsPreviewProps) {
  const client = useApiClient();
  const { user, expire } = useSession();
  // The page's, read once for its rule builders too (RuleChoicesContext): a read here asked again at every load.
  const choices = useRuleChoices();
  const [location, setLocation] = useState(() => shown ?? firstPlacedLocation(document));
  const [followed, setFollowed] = useState(shown);
  if (followed !== shown) {
    setFollowed(shown);
    if (shown !== undefined) setLocation(shown);
  }
  const [linkedFor, setLinkedFor] = useState(linked);
  if (linkedFor !== linked) {
    setLinkedFor(linked);
    if (linked) setLocation(linked.location);
  }
  const [role, setRole] = useState<string>(OPERATOR_ROLE);
  const [tenant, setTenant] = useState(user?.currentTenant ?? '');
  const [flagsByHand, setFlagsByHand] = useState(false);
  const [flagsText, setFlagsText] = useState('');
  const [state, setState] = useState<PreviewState | null>(null);
  // Its own slot status (no tab record, no events) and placeholders for failures, whatever the server's mode.
  const [runtime] = useState(() => ({ ...createSlotStatus(), showFailures: true, failureHint: FAILURE_HINT }));

  // A document shown in part (rules counting tenants, props hidden: the page is read only, as it was shown) is not the
  // draft's: the saved draft is previewed instead (no document sent), read whole by the server and answered counted.
  const sent = partHiddenIn(document) !== null ? {} : { document: document as PlacementsPreviewRequest['document'] };
  const request: PlacementsPreviewRequest = {
    ...sent,
    location,
    context: { roles: [role], tenant, ...(flagsByHand ? { flags: flagNames(flagsText) } : {}) },
  };
  const key = JSON.stringify(request);
  const asked = askedOf(key);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      client.post<PlacementsPreviewPayload>(PLACEMENTS_PREVIEW_PATH, JSON.parse(key), controller.signal).then(
        (payload) => setState({ key, asked: askedOf(key), status: 'ready', payload }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const apiError = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
          if (apiError.status === 401) expire();
          setState({ key, asked: askedOf(key), status: 'error', message: apiError.message });
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, expire, key]);

  const tenants = choices?.tenants ?? user?.tenants ?? [];
  const previewed = state?.status === 'ready' ? state.payload.locations[location] : undefined;
  const problems = state?.status === 'ready' ? state.payload.problems : [];
  // A slot whose rule is still being built (a condition naming nothing yet) is no slot to the server, so it is not
  // previewed: said as what is left to fill in, not as the server's refusal. Read in the document that was previewed.
  const answered = state === null ? undefined : (JSON.parse(state.key) as PlacementsPreviewRequest).document;
  const unfinished = answered === undefined ? [] : unfinishedRuleSlots(answered as PlacementsDocument, problems);
  const unread = problems.filter((problem) => !unfinished.some((slot) => slot.problem === problem));
  const unfinishedHere = unfinished.filter((slot) => slot.location === location);
  const unfinishedElsewhere = unfinished.filter((slot) => slot.location !== location);

  return (
    <section className="inspector__section placements__live-preview" aria-labelledby={PREVIEW_HEADING_ID}>
      <PreviewHeading focus={headingFocus} />
      <p className="muted">
        A location as one account would see it with this draft published (unsaved changes included): its slots rendered
        with the remotes&apos; components, and every slot placed there with whether that account sees it.
      </p>
      <div className="placements__preview-context">
        <div className="form__field">
          <label htmlFor="placements-preview-location">Location previewed</label>
          <select
            id="placements-preview-location"
            value={location}
            onChange={(event) => setLocation(event.target.value)}
          >
            {SlotLocation.cases().map((known) => (
              <option key={known.value} value={known.value}>
                {known.value}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="placements-preview-role">As role</label>
          <select id="placements-preview-role" value={role} onChange={(event) => setRole(event.target.value)}>
            {STAFF_ROLES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="placements-preview-tenant">In tenant</label>
          <select id="placements-preview-tenant" value={tenant} onChange={(event) => setTenant(event.target.value)}>
            {tenants.map((known) => (
              <option key={known.id} value={known.id}>
                {known.name} ({known.id})
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label>
            <input type="checkbox" checked={flagsByHand} onChange={(event) => setFlagsByHand(event.target.checked)} />{' '}
            Choose the feature flags (otherwise: those on for the tenant)
          </label>
          {flagsByHand && (
            <>
              <label htmlFor="placements-preview-flags">Flags on (comma-separated)</label>
              <input
                id="placements-preview-flags"
                list="placements-preview-known-flags"
                value={flagsText}
                onChange={(event) => setFlagsText(event.target.value)}
              />
              <datalist id="placements-preview-known-flags">
                {(choices?.flags ?? []).map((flag) => (
                  <option key={flag} value={flag} />
                ))}
              </datalist>
            </>
          )}
        </div>
      </div>
      {/*
        Live, so it says once what changed: while only the draft changes (each pause in typing a prop asks again) it
        keeps saying the last answer rather than going to "Previewing…" and back, which a screen reader read out at
        every pause. The count of slots shown changes with an edit that shows or hides one: that is said.
      */}
      <p role="status" className="muted" data-placements-preview-status>
        {state === null || state.asked !== asked
          ? 'Previewing…'
          : state.status === 'error'
            ? `No preview: ${state.message}`
            : describeAnswer(state.payload, location, unfinishedHere)}
      </p>
      {unread.length + unfinishedElsewhere.length > 0 && (
        <ul className="form-error">
          {unread.map((problem) => (
            <li key={problem.message}>Not in the preview: {problem.message}</li>
          ))}
          {unfinishedElsewhere.map((slot) => (
            <li key={slot.problem.message}>
              At {slot.location}: {slot.words}
            </li>
          ))}
        </ul>
      )}
      {previewed !== undefined && (
        <>
          <div className="placements__preview-stage" data-placements-preview-stage={location}>
            {/*
              A picture of the location, not a page to use: its links and buttons would lead keyboard users through
              dead stops (or out of the editor, its draft unsaved), so it is inert, for the pointer too. Inert also
              takes it out of the accessibility tree: what a screen reader needs of it is said in words by the list
              below (each slot placed here, and whether this account sees it), where controls that do nothing would
              only mislead. Seen, it stays as the page would draw it.
            */}
            <div inert>
              <SlotRuntimeProvider runtime={runtime}>
                <LocationSlots location={SlotLocation.from(location)} entries={previewed.slots} status="ready" />
              </SlotRuntimeProvider>
            </div>
            {previewed.slots.length === 0 && <p className="empty">This account sees no slot here.</p>}
          </div>
          <ol
            className="placements__preview-slots"
            aria-label={`Slots placed at ${location}, and whether this account sees each`}
            data-placements-preview-slots
          >
            {previewed.placed.map((slot) => (
              <li
                key={`${slot.source}|${slot.remote ?? ''}|${slot.id}|${slot.outcome}`}
                data-preview-slot={slot.id}
                data-preview-outcome={slot.outcome}
              >
                {describeSlot(slot)}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** What a preview request asks besides the document: the location and the account (role, tenant, flags). */
function askedOf(key: string): string {
  const { document: _document, ...rest } = JSON.parse(key) as PlacementsPreviewRequest;
  return JSON.stringify(rest);
}

function flagNames(text: string): string[] {
  return text
    .split(',')
    .map((flag) => flag.trim())
    .filter((flag) => flag !== '');
}

/**
 * `As roles viewer in tenant acme, no flag on: 1 of 2 slots placed at dashboard-after-cards shown.`: the account,
 * and what it sees of the location (the stage is inert, out of the accessibility tree: this and the list say it),
 * then each slot of the location not previewed while its rule is being built, and what is left to fill in.
 */
function describeAnswer(
  payload: PlacementsPreviewPayload,
  location: string,
  unfinished: readonly UnfinishedRuleSlot[],
): string {
  const waiting = unfinished.map((slot) => ` ${slot.words}`).join('');
  return `${describeSeen(payload, location, unfinished.length > 0)}${waiting}`;
}

function describeSeen(payload: PlacementsPreviewPayload, location: string, othersWait: boolean): string {
  const { context } = payload;
  const previewed = payload.locations[location];
  const flags = context.flags.length === 0 ? 'no flag on' : `flags on: ${context.flags.join(', ')}`;
  const account = `As roles ${context.roles.join(', ')} in tenant ${context.tenant}, ${flags}`;
  if (previewed === undefined || previewed.placed.length === 0) {
    return `${account}: nothing ${othersWait ? 'else ' : ''}is placed at ${location}.`;
  }
  const placed = previewed.placed.length;
  const shown = previewed.placed.filter((slot) => slot.outcome === 'shown').length;
  return `${account}: ${shown} of ${countOf(placed, 'slot')} placed at ${location} shown.`;
}

/** `InvoiceBanner (draft, team_billing): hidden by its rule: role operator`. */
function describeSlot(slot: PreviewedSlot): string {
  const source = slot.source === 'code' ? 'code' : `${slot.source}, ${slot.remote ?? ''}`;
  return `${slot.id} (${source}): ${slot.outcome === 'shown' ? 'shown' : (slot.reason ?? slot.outcome)}`;
}

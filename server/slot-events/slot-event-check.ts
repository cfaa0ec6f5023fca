import {
  SLOT_EVENTS_MAX_PER_BATCH,
  SLOT_LOAD_OUTCOMES,
  SLOT_LOAD_PHASES,
  isPlainObject,
  type Slot,
  type SlotEntry,
  type SlotLoadEvent,
  type SlotMap,
  type SlotLoadOutcome,
  type SlotLoadPhase,
} from '../../shared';
import { HttpError } from '../http/http-error';
import type { ServedSlots } from '../meta/served-slots';

/** The longest load time counted as such (a slot still loading after 10 minutes is counted at 10 minutes). */
const MAX_MS = 10 * 60_000;
/** A failure kind of the slot status: a short lower-case word list (`remote-unavailable`). */
const KIND_PATTERN = /^[a-z][a-z-]{0,39}$/;

/**
 * The events of a `POST /api/slot-events` body, in their shape: `{ events: [...] }` with 1 to 50 events of known
 * outcomes and phases and finite times. Anything else is 400; fields the contract does not name (a `tenant`, a
 * `release`) are not read at all, and a `releaseTag` counts only when the server signed it (release-tags.ts). Whether the remote, component and location exist is asked later, per event.
 */
export function slotEventsOf(body: unknown): SlotLoadEvent[] {
  const events = isPlainObject(body) ? body.events : undefined;
  if (!Array.isArray(events) || events.length === 0 || events.length > SLOT_EVENTS_MAX_PER_BATCH) {
    throw HttpError.invalidRequest(`Send { "events": [...] } with 1 to ${SLOT_EVENTS_MAX_PER_BATCH} events.`);
  }
  return events.map((value: unknown, index) => {
    const event = slotEventOf(value);
    if (typeof event === 'string') throw HttpError.invalidRequest(`Event ${index} is not a slot load event: ${event}.`);
    return event;
  });
}

/** The event, or what is wrong with it (the first field found wrong, named as the contract names it). */
function slotEventOf(value: unknown): SlotLoadEvent | string {
  if (!isPlainObject(value)) return 'it must be an object';
  const { location, component, remote, outcome, phase, kind, loadMs, startMs, afterRender, releaseTag } = value;
  for (const [field, name] of Object.entries({ location, component, remote })) {
    if (!isName(name)) return `"${field}" must be a name of 1 to 128 characters`;
  }
  if (!SLOT_LOAD_OUTCOMES.includes(outcome as SlotLoadOutcome)) {
    return `"outcome" must be one of ${SLOT_LOAD_OUTCOMES.join(', ')}`;
  }
  const failed = outcome === 'failed' || outcome === 'timed-out';
  const onlyWhenFailed = 'null, or for a failed or timed-out load';
  if (phase !== null && !(failed && SLOT_LOAD_PHASES.includes(phase as SlotLoadPhase))) {
    return `"phase" must be ${onlyWhenFailed} one of ${SLOT_LOAD_PHASES.join(', ')}`;
  }
  if (kind !== null && !(failed && typeof kind === 'string' && KIND_PATTERN.test(kind))) {
    return `"kind" must be ${onlyWhenFailed} a failure kind in lower-case words (remote-unavailable)`;
  }
  for (const [field, time] of Object.entries({ loadMs, startMs })) {
    if (!isTime(time)) return `"${field}" must be a number of milliseconds, 0 or more`;
  }
  // Only a render can fail after the render: anything else marked so is not an event the host sends.
  if (afterRender !== undefined && !(afterRender === true && outcome === 'failed' && phase === 'render')) {
    return '"afterRender" may only be true, and only for a failed render';
  }
  if (releaseTag !== undefined && !(typeof releaseTag === 'string' && releaseTag.length <= 200)) {
    return '"releaseTag" must be the release tag the server gave (GET /api/remotes)';
  }
  return {
    location: location as string,
    component: component as string,
    remote: remote as string,
    outcome: outcome as SlotLoadOutcome,
    phase: phase as SlotLoadPhase | null,
    kind: kind as string | null,
    loadMs: Math.min(Math.round(loadMs as number), MAX_MS),
    startMs: Math.min(Math.round(startMs as number), MAX_MS),
    ...(afterRender === true ? { afterRender: true as const } : {}),
    ...(releaseTag !== undefined ? { releaseTag: releaseTag as string } : {}),
  };
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 128;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * What the server knows now, to count only loads a visitor could have made: a slot served to them at the location
 * (counts and the canary's verdict would otherwise take whatever a script sends, each made-up slot a key, a row more).
 */
export interface SlotEventSubjects {
  /** The components a remote provides in the release `release` ('' the remote's own descriptor); null: unknown. */
  componentsOf(remote: string, release: string): readonly string[] | null;
  /** The components of a resource form's slots (the host reports them at `form:<resource>`); null: no such resource. */
  formSlotsOf(resource: string): ReadonlySet<string> | null;
}

/**
 * Whether the event names a slot served to the visitor at that location (nested content included; a form's slots to
 * the signed-in only), of a component its remote's release provides. A slot a rule hides from them, or a protected
 * location's for a visitor not signed in, is one they cannot have loaded.
 */
export function isKnownSlot(
  event: SlotLoadEvent,
  release: string,
  subjects: SlotEventSubjects,
  served: ServedSlots,
): boolean {
  const form = event.location.startsWith(FORM_PREFIX) ? event.location.slice(FORM_PREFIX.length) : null;
  const placed =
    form === null ? componentsAt(served.slots, event.location) : served.signedIn ? subjects.formSlotsOf(form) : null;
  if (placed?.has(event.component) !== true) return false;
  return subjects.componentsOf(event.remote, release)?.includes(event.component) ?? false;
}

const FORM_PREFIX = 'form:';

/** The components each location of a served slot map renders, per map: maps are shared and kept while in force. */
const renderedByMap = new WeakMap<SlotMap, Map<string, ReadonlySet<string>>>();

function componentsAt(slots: SlotMap, location: string): ReadonlySet<string> | undefined {
  let byLocation = renderedByMap.get(slots);
  if (byLocation === undefined) {
    byLocation = new Map();
    for (const [at, entries] of Object.entries(slots)) if (entries) byLocation.set(at, componentsRendered(entries));
    renderedByMap.set(slots, byLocation);
  }
  return byLocation.get(location);
}

/** The components slots render: each slot's, and those of the slots in its content, at any depth. */
export function componentsRendered(slots: ReadonlyArray<Slot | SlotEntry>, into = new Set<string>()): Set<string> {
  for (const slot of slots) {
    into.add(slot.component);
    const content: unknown = slot.content;
    if (Array.isArray(content)) componentsRendered(content as ReadonlyArray<Slot | SlotEntry>, into);
    else if (typeof content === 'object' && content !== null) componentsRendered([content as Slot | SlotEntry], into);
  }
  return into;
}

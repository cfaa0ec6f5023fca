import { useRef, useState, type MouseEvent } from 'react';
import type { JsonSchema, PlacementComponentsPayload, PlacementPreview, PlacementProblem } from '../../../shared';
import { SlotEditor } from './placement-slot-editor';
import { orderChoiceWords } from './placement-order-words';
import { slotKey, type DraftSlot, type DraftSlotAt } from './placements-draft';
import type { LocationIds } from './placements-slot-ids';
import { countOf } from '../common/count-in-words';
import { PREVIEW_HEADING_ID } from './placements-preview-heading';
import { useAddedEntry } from './use-added-entry';

export interface PlacementsLocationProps {
  location: string;
  /** Not the location shown (the editor shows one at a time): kept rendered, so what is typed in it stays. */
  hidden?: boolean;
  isPublic: boolean;
  slots: readonly DraftSlotAt[];
  problems: readonly PlacementProblem[];
  /** This location's order with the saved draft published (code's, the file's and the draft's slots). */
  preview: PlacementPreview[string] | undefined;
  /** Every slot placed here with its id, the draft's as edited (locationIds): what ids, before and after name. */
  ids: LocationIds;
  components: PlacementComponentsPayload;
  change(at: DraftSlotAt, change: (slot: DraftSlot) => DraftSlot | null): void;
  /** Absent for a location this version does not have (`gone`): nothing is added there. */
  add?(remote: string, component: string): void;
  /**
   * The page's latest outcome (a save, a publish, an import): once it changes, what was said of an Add or a Remove
   * here ("… in the draft") is cleared, as no longer news.
   */
  outcome?: unknown;
  /** No location of this version (an upgrade renamed or removed it): its slots are shown to be removed. */
  gone?: boolean;
  /**
   * Called as its link to the preview is followed, before the preview's heading takes the focus: the preview shows
   * this location then, as the link says, even where the preview's own choice moved it to another since.
   */
  previewHere?(): void;
}

/** One location of the draft: its slots in order, each editable, their problems, and a way to add one. */
export function PlacementsLocation(props: PlacementsLocationProps) {
  const { location, slots } = props;
  const headingId = `placements-${location}`;
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const added = useAddedEntry(section, slots.map(slotKey), props.outcome, (key, place) => {
    const moved = slots.find((at) => slotKey(at) === key);
    const what = moved ? `${String(moved.slot.component)} (${moved.remote})` : 'The slot';
    return `${what} is now #${place} of ${slots.length} at ${location}, by its priority.`;
  });
  return (
    <section
      ref={section}
      className="inspector__section"
      aria-labelledby={headingId}
      data-placements-location={location}
      hidden={props.hidden}
    >
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {location}
      </h2>
      {props.gone ? (
        <p className="notice notice--warning">
          This version of the product has no location named {location} (an upgrade renamed or removed it): nothing
          placed here is shown, and the draft cannot be published with it. Remove each slot below, then add it again
          where it belongs, with the props its card shows.
        </p>
      ) : (
        <>
          <p className="muted">
            {props.isPublic ? 'public: the server refuses a "Shown when" rule here' : 'protected'}
          </p>
          <p>
            {/* Focused here rather than by the address's hash: the page keeps its location in the address, and a hash
                change with unsaved changes went through the router's leave guard as a navigation from outside it. */}
            <a
              href={`#${PREVIEW_HEADING_ID}`}
              onClick={(event) => {
                props.previewHere?.();
                goToPreview(event);
              }}
            >
              See {location} as a chosen account would
            </a>{' '}
            (the preview below, with this draft and its unsaved changes).
          </p>
        </>
      )}
      {slots.length === 0 ? (
        <p className="empty">The draft places nothing here.</p>
      ) : (
        <ol className="placements__slots">
          {slots.map((at, index) => (
            <SlotEditor
              key={slotKey(at)}
              at={at}
              place={index + 1}
              isPublic={props.isPublic}
              ids={props.ids}
              schema={schemaOf(props.components, at)}
              problems={props.problems.filter(
                (problem) =>
                  problem.remote === at.remote && problem.location === location && problem.index === at.index,
              )}
              change={(change) => props.change(at, change)}
              ordered={(relation, target) =>
                added.placed(
                  orderChoiceWords(props.ids, at, { place: index + 1, count: slots.length }, relation, target),
                )
              }
              removed={(title) =>
                added.removed(
                  `Removed ${title} from ${location}: ${countOf(slots.length - 1, 'slot')} there in the draft.`,
                  heading.current,
                )
              }
            />
          ))}
        </ol>
      )}
      {props.add && (
        <AddSlot
          location={location}
          components={props.components}
          add={(remote, component) => {
            added.adding(
              `Added ${component} (${remote}) at ${location}: ${countOf(slots.length + 1, 'slot')} there in the draft.`,
            );
            props.add?.(remote, component);
          }}
        />
      )}
      <p className="visually-hidden" role="status">
        {added.announcement}
      </p>
      {props.preview !== undefined && props.preview.length > 0 && (
        <div className="placements__preview" data-placements-preview={location}>
          <h3>Order with the saved draft published</h3>
          <ol>
            {props.preview.map((slot) => (
              <li key={`${slot.source}|${slot.id}`}>
                {slot.id} ({slot.source === 'code' ? 'code' : `${slot.source}, ${slot.remote ?? ''}`})
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

/**
 * Follows a link to the preview: its heading focused (and so scrolled to), the address left alone. While the preview's
 * chunk loads, that is the loading heading, which hands the focus on (placements-preview-heading.tsx).
 */
function goToPreview(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.getElementById(PREVIEW_HEADING_ID)?.focus();
}

function schemaOf(components: PlacementComponentsPayload, at: DraftSlotAt): JsonSchema | null {
  const remote = components.remotes.find((candidate) => candidate.name === at.remote);
  return remote?.components.find((component) => component.name === at.slot.component)?.schema ?? null;
}

function AddSlot({
  location,
  components,
  add,
}: Pick<PlacementsLocationProps, 'location' | 'components'> & { add(remote: string, component: string): void }) {
  const options = components.remotes.flatMap((remote) =>
    remote.components.map((component) => `${remote.name}:${component.name}`),
  );
  const [choice, setChoice] = useState('');
  const select = useRef<HTMLSelectElement>(null);
  const selectId = `placements-add-${location}`;
  if (options.length === 0) return null;
  return (
    <div className="placements__add">
      <label htmlFor={selectId}>Add a slot at {location}</label>
      <select id={selectId} ref={select} value={choice} onChange={(event) => setChoice(event.target.value)}>
        <option value="">Choose a component…</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option.replace(':', ': ')}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--secondary"
        disabled={choice === ''}
        onClick={() => {
          const [remote, component] = choice.split(':') as [string, string];
          add(remote, component);
          setChoice('');
          // The button is disabled until the next choice: focus would fall to the page's top otherwise. The new
          // entry takes it once shown (useAddedEntry); this is where it waits.
          select.current?.focus();
        }}
      >
        Add
      </button>
    </div>
  );
}

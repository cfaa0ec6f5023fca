import { Link } from 'react-router-dom';
import { SlotLocation, type PlacementPreview, type PlacementProblem, type PlacementsDocument } from '../../../shared';
import { countOf } from '../common/count-in-words';
import { FORM_SLOTS, goneLocationsOf, LOCATION_PARAM } from './placements-chosen-location';
import { slotsAt } from './placements-draft';
import { formLocation, formSlotsOf } from './placements-form-slots';

export interface PlacementsContentsProps {
  document: PlacementsDocument;
  problems: readonly PlacementProblem[];
  /** Each location's order with the saved draft published: what code and the file place there is counted from it. */
  preview: PlacementPreview;
  /** The location shown (or FORM_SLOTS). */
  chosen: string;
  /** Called as a location is picked, before the address changes. */
  onChoose?(location: string): void;
}

/** Where each location is in the admin, by its name's first word: the map's areas, in this order. */
const AREAS: ReadonlyArray<[prefix: string, area: string]> = [
  ['login', 'Sign-in page'],
  ['dashboard', 'Dashboard'],
  ['resource', 'Record pages'],
  ['', 'Every page (header, around the content, tenant switcher)'],
];

interface Entry {
  value: string;
  label: string;
  summary: string;
  problems: number;
}

/**
 * `2 in the draft, 1 of code or the file, 1 problem` / `empty`: what a link says of its location. The draft's slots
 * are counted as edited; code's and the file's from the saved draft's preview.
 */
export function locationSummary(draft: number, others: number, problems: number): string {
  const parts = [];
  if (draft > 0) parts.push(`${draft} in the draft`);
  if (others > 0) parts.push(`${others} of code or the file`);
  if (problems > 0) parts.push(countOf(problems, 'problem'));
  return parts.length === 0 ? 'empty' : parts.join(', ');
}

/**
 * The id of what a location's link in the map says of it (its slots and problems). Encoded: a location an upgrade
 * removed is named by the draft, spaces and all, and aria-describedby reads a space as two ids.
 */
function summaryId(location: string): string {
  return `placements-contents-${encodeURIComponent(location)}-summary`;
}

/**
 * The map of the admin's locations the editor shows one at a time: each location under the part of the admin it is
 * in, with the slots placed there (the draft's, code's and the file's) and the draft's problems, a link that shows
 * it (the address keeps it: `?location=`), and the form slots apart. The one shown is marked as the current page.
 */
export function PlacementsContents({ document, problems, preview, chosen, onChoose }: PlacementsContentsProps) {
  const formSlots = formSlotsOf(document);
  const formLocations = new Set(formSlots.map((at) => formLocation(at.resource)));
  const entryOf = (value: string): Entry => ({
    value,
    label: value,
    summary: locationSummary(
      slotsAt(document, value).length,
      (preview[value] ?? []).filter((slot) => slot.source !== 'draft').length,
      problems.filter((problem) => problem.location === value).length,
    ),
    problems: problems.filter((problem) => problem.location === value).length,
  });
  const remaining = new Set(SlotLocation.cases().map((location) => location.value as string));
  const areas = AREAS.map(([prefix, area]) => {
    const values = [...remaining].filter((value) => prefix === '' || value.startsWith(`${prefix}-`));
    for (const value of values) remaining.delete(value);
    return { area, entries: values.map(entryOf) };
  });
  const gone = goneLocationsOf(document);
  if (gone.length > 0)
    areas.push({ area: 'No longer locations (renamed or removed by an upgrade)', entries: gone.map(entryOf) });
  const formProblems = problems.filter(
    (problem) => problem.location !== null && formLocations.has(problem.location),
  ).length;
  areas.push({
    area: 'Resource forms',
    entries: [
      {
        value: FORM_SLOTS,
        label: 'Form slots',
        summary: locationSummary(formSlots.length, 0, formProblems),
        problems: formProblems,
      },
    ],
  });
  return (
    <nav aria-labelledby="placements-contents" className="placements__contents">
      <h2 id="placements-contents">Locations</h2>
      <p className="muted">Pick the location to edit: one is shown at a time.</p>
      <div className="placements__map">
        {areas.map(({ area, entries }) => (
          <div key={area} className="placements__area">
            <h3>{area}</h3>
            <ul>
              {entries.map((entry) => (
                <li key={entry.value} className={entry.problems > 0 ? 'placements__contents-problem' : undefined}>
                  {/* Described by its summary: a Tab through the map reads each link alone, and its problems
                      (shown beside it, marked in colour) would go unsaid. */}
                  <Link
                    to={`?${LOCATION_PARAM}=${encodeURIComponent(entry.value)}`}
                    aria-current={entry.value === chosen ? 'page' : undefined}
                    aria-describedby={summaryId(entry.value)}
                    onClick={() => onChoose?.(entry.value)}
                  >
                    {entry.label}
                  </Link>{' '}
                  <span className="muted" id={summaryId(entry.value)}>
                    ({entry.summary})
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

import { SlotLocation, type PlacementProblem, type PlacementsDocument } from '../../../shared';
import { countOf } from '../common/count-in-words';
import { slotsAt } from './placements-draft';
import { formLocation, formSlotsOf } from './placements-form-slots';

export interface PlacementsContentsProps {
  document: PlacementsDocument;
  problems: readonly PlacementProblem[];
}

/** `2 in the draft, 1 problem` / `none in the draft`: what a link says of its section (code's slots are not counted). */
function summary(slots: number, problems: number): string {
  if (slots === 0 && problems === 0) return 'none in the draft';
  const parts = [`${slots} in the draft`];
  if (problems > 0) parts.push(countOf(problems, 'problem'));
  return parts.join(', ');
}

/**
 * The editor's contents: a link to each location's section (and the form slots'), with what the draft places there
 * and its problems. The editor has a section per location, some 7,000 px on a desktop: without it an operator
 * scrolls past every empty location to find the one to change.
 */
export function PlacementsContents({ document, problems }: PlacementsContentsProps) {
  const formSlots = formSlotsOf(document);
  const formLocations = new Set(formSlots.map((at) => formLocation(at.resource)));
  const entries = [
    ...SlotLocation.cases().map((location) => ({
      id: `placements-${location.value}`,
      label: location.value,
      slots: slotsAt(document, location.value).length,
      problems: problems.filter((problem) => problem.location === location.value).length,
    })),
    {
      id: 'placements-forms',
      label: 'Form slots',
      slots: formSlots.length,
      problems: problems.filter((problem) => problem.location !== null && formLocations.has(problem.location)).length,
    },
  ];
  return (
    <nav aria-labelledby="placements-contents" className="placements__contents">
      <h2 id="placements-contents">Locations of the draft</h2>
      <ul>
        {entries.map((entry) => (
          <li key={entry.id} className={entry.problems > 0 ? 'placements__contents-problem' : undefined}>
            <a href={`#${entry.id}`}>{entry.label}</a>{' '}
            <span className="muted">({summary(entry.slots, entry.problems)})</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

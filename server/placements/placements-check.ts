import { SlotLocation, type PlacementProblem } from '../../shared';
import { describeFormPosition } from '../slots/configured-forms';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { ReadableTenants } from '../slots/shown-rule';
import { checkSlots, type SlotCheckSubjects } from '../slot-check/slot-check';
import type { SlotProblem } from '../slots/slot-contract';
import { withPlacements, type DocumentSlot, type ParsedPlacements } from './placements-document';
import { unknownRuleNameProblems, type KnownRuleNames } from './rule-names-check';

/**
 * The problems a placements document brings, as a REMOTES_CONFIG reload is checked: the slot check (component of
 * that remote, props against its schema, allow-lists, order targets, ids unique at a location, no cycle) on the
 * configuration the document makes with `file`. Each problem names the document's slot it is about; a problem of a
 * code or file slot is listed only when the document causes it (an allow-list it narrows, an id it takes), never
 * one the file had without it. A document whose shape is wrong is not checked further: its shape problems come back.
 *
 * With `known` (readKnownRuleNames), a rule naming a tenant or flag that does not exist is a problem too, first
 * (a warning only for a rule published so, unchanged: `known.published`, rule-names-check.ts).
 * Give it for an edit (a draft saved, an import, a publish, a rollback); leave it out when taking a revision already
 * published, so that a flag unset since, or a tenant this host has not seen yet, never makes one host refuse a
 * revision the others serve. `readable`: the tenants whose ids the problems may name (rule-names-check.ts).
 */
export function checkPlacements(
  subjects: SlotCheckSubjects,
  file: RemotesConfig,
  parsed: ParsedPlacements,
  known?: KnownRuleNames,
  readable: ReadableTenants = null,
): PlacementProblem[] {
  const unknownNames = known === undefined ? [] : unknownRuleNameProblems(parsed, known, readable);
  if (parsed.problems.length > 0) return [...parsed.problems, ...unknownNames];
  const combined = withPlacements(file, parsed);
  const without = new Set(checkSlots(subjects, file).map(keyOf));
  const slotOf = attribution(file, parsed);
  const formSlotOf = formAttribution(parsed);
  const slotProblems = checkSlots(subjects, combined).flatMap((problem): PlacementProblem[] => {
    const documentSlot = slotOf(problem);
    const slot = documentSlot ?? formSlotOf(problem);
    if (slot === null && without.has(keyOf(problem))) return [];
    return [
      {
        remote: slot?.remote ?? problem.remote,
        location: problem.location,
        index: slot?.index ?? null,
        // The slot named is the document's: an order problem found at another slot (a code slot holding the same
        // id) is said of the document's slot that brings it.
        component: documentSlot?.slot.component ?? problem.component,
        kind: problem.kind,
        path: problem.path,
        message: slot === null ? `${problem.source} slot ${problem.component}: ${problem.message}` : problem.message,
        blocking: problem.blocking,
      },
    ];
  });
  return [...unknownNames, ...slotProblems];
}

/** A problem without its position (the document's slots shift a location's positions, not the problem). */
function keyOf(problem: SlotProblem): string {
  return JSON.stringify([
    problem.kind,
    problem.location,
    problem.source,
    problem.component,
    problem.path,
    problem.message,
  ]);
}

/**
 * Which of the document's slots a problem of the combined configuration is about, from its position: the configured
 * slots of a location are numbered file first, then the document's (placedConfiguredSlots), and an order problem (a
 * duplicate id: the later holder; a cycle) names its slot the same way (slot-check.ts).
 */
function attribution(file: RemotesConfig, parsed: ParsedPlacements): (problem: SlotProblem) => DocumentSlot | null {
  return (problem) => {
    const location = SlotLocation.tryFrom(problem.location);
    const at = /^\[(\d+)\]/.exec(problem.position);
    if (location === undefined || at === null || problem.source === 'code') return null;
    const fileCount = file.slots.filter((item) => item.location === location).length;
    const documentHere = parsed.slots.filter((item) => item.location === location);
    const configuredIndex = Number(at[1]);
    return configuredIndex < fileCount ? null : (documentHere[configuredIndex - fileCount] ?? null);
  };
}

/**
 * Which of the document's form slots a problem is about: the slot check names a form slot by its form
 * (`resource form "<resource>"`), remote, component and position, not by an index, so the document's form slot
 * with all four is it (the first such, when the document repeats one). Its index is the one in its remote's
 * `forms[resource]` list, as the editor holds it.
 */
function formAttribution(parsed: ParsedPlacements): (problem: SlotProblem) => { remote: string; index: number } | null {
  const counts = new Map<string, number>();
  const indexed = parsed.forms.map((form) => {
    const key = JSON.stringify([form.remote, form.resource]);
    const index = counts.get(key) ?? 0;
    counts.set(key, index + 1);
    return { form, index };
  });
  return (problem) => {
    if (problem.source !== 'configuration') return null;
    const found = indexed.find(
      ({ form }) =>
        problem.location === `resource form "${form.resource}"` &&
        problem.remote === form.remote &&
        problem.component === form.slot.component &&
        problem.position === describeFormPosition(form.position),
    );
    return found === undefined ? null : { remote: found.form.remote, index: found.index };
  };
}

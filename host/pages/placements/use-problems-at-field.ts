import { useState } from 'react';
import type { JsonValue, PlacementProblem } from '../../../shared';

const NO_PROBLEMS: readonly PlacementProblem[] = [];

/**
 * The problems the draft check found in a field's value, while the field still holds that value: once the operator
 * edits it, the field no longer says them (the card's list says them in full until the next save checks again).
 * Known by its problems' objects: the list is made anew at each render of the page (a filter of every problem), its
 * problems only by a check (a save), even one that finds the same.
 */
export function useProblemsAtField(
  problems: readonly PlacementProblem[],
  value: JsonValue | undefined,
): readonly PlacementProblem[] {
  const text = JSON.stringify(value ?? null);
  const [checked, setChecked] = useState({ problems, value: text });
  const fresh = !sameItems(checked.problems, problems);
  if (fresh) setChecked({ problems, value: text });
  return fresh || checked.value === text ? problems : NO_PROBLEMS;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

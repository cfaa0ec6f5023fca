import { DEFAULT_SLOT_PRIORITY, type Slot } from '../../shared';

/** Why the slots of a location cannot be ordered as their placements ask. */
export interface OrderProblem {
  kind: 'duplicate-id' | 'missing-target' | 'order-cycle';
  /** The slot whose placement is at fault (for a cycle: one of the slots in it). */
  id: string;
  message: string;
}

/** The slots of one location in their resolved order, each with its id. */
export interface OrderedSlots {
  slots: readonly Slot[];
  /** The registration index of each slot of `slots`. */
  order: readonly number[];
  ids: readonly string[];
  problems: readonly OrderProblem[];
}

/**
 * The id of each slot, in registration order: the one its placement gives, else its component name, with `#2`,
 * `#3`... for the second and later slots of the same component at the location (`Notice`, `Notice#2`). Stable while
 * the registrations before it at its location stay the same.
 */
export function slotIds(slots: readonly Slot[]): string[] {
  const seen = new Map<string, number>();
  return slots.map((slot) => {
    if (slot.placement.id !== undefined) return slot.placement.id;
    const count = (seen.get(slot.component) ?? 0) + 1;
    seen.set(slot.component, count);
    return count === 1 ? slot.component : `${slot.component}#${count}`;
  });
}

/**
 * Orders one location's slots (given in registration order: code's, then the configuration's): by priority, lower
 * first ({@link DEFAULT_SLOT_PRIORITY} when none is given), equal priorities in registration order; a slot with
 * `before` or `after` goes right next to its target, whatever its own priority (several next to one target keep
 * their registration order). The order is a topological sort that always picks the lowest rank among the slots free
 * to go next, so a location without placements keeps its registration order exactly.
 *
 * A target not at the location is a problem (unless `elsewhere` holds it: a slot left out for now, such as one of a
 * remote not answering) and its rule is ignored; a cycle is a problem, and its slots follow the others by priority.
 */
export function orderSlots(location: string, slots: readonly Slot[], elsewhere?: ReadonlySet<string>): OrderedSlots {
  const ids = slotIds(slots);
  const problems: OrderProblem[] = [];
  const indexOf = new Map<string, number>();
  ids.forEach((id, index) => {
    if (indexOf.has(id)) {
      problems.push({
        kind: 'duplicate-id',
        id,
        message: `two slots at "${location}" have the id "${id}"; give one of them another "id"`,
      });
    } else indexOf.set(id, index);
  });

  // edges[a] holds b when a must come before b.
  const edges = slots.map(() => new Set<number>());
  const incoming = slots.map(() => 0);
  const constrain = (first: number, second: number) => {
    if (edges[first]!.has(second)) return;
    edges[first]!.add(second);
    incoming[second]!++;
  };
  slots.forEach((slot, index) => {
    for (const relation of ['before', 'after'] as const) {
      const target = slot.placement[relation];
      if (target === undefined) continue;
      const targetIndex = indexOf.get(target);
      if (targetIndex === undefined) {
        if (elsewhere?.has(target)) continue;
        problems.push({
          kind: 'missing-target',
          id: ids[index]!,
          message: `slot "${ids[index]}" at "${location}" is placed ${relation} "${target}", but no slot at "${location}" has that id`,
        });
        continue;
      }
      if (relation === 'before') constrain(index, targetIndex);
      else constrain(targetIndex, index);
    }
  });

  // A slot placed before or after another sorts as its target does (its own priority set aside), so it lands right
  // next to it; among slots of equal rank, the edges decide, then the registration order.
  const rank = slots.map((_, index) => index);
  const targetOf = (index: number) => {
    const { before, after } = slots[index]!.placement;
    const target = before ?? after;
    return target === undefined ? undefined : indexOf.get(target);
  };
  rank.forEach((_, index) => {
    const seen = new Set<number>([index]);
    let at = index;
    for (let next = targetOf(at); next !== undefined && !seen.has(next); next = targetOf(at)) {
      seen.add(next);
      at = next;
    }
    rank[index] = at;
  });
  const priority = (index: number) => slots[rank[index]!]!.placement.priority ?? DEFAULT_SLOT_PRIORITY;
  const earlier = (a: number, b: number) => priority(a) - priority(b) || rank[a]! - rank[b]! || a - b;
  const order: number[] = [];
  const placed = new Set<number>();
  // Quadratic in the slots of one location, at registration only: locations hold a handful of slots.
  while (order.length < slots.length) {
    let next = -1;
    for (let index = 0; index < slots.length; index++) {
      if (placed.has(index) || incoming[index]! > 0) continue;
      if (next === -1 || earlier(index, next) < 0) next = index;
    }
    if (next === -1) {
      const remaining = slots.map((_, index) => index).filter((index) => !placed.has(index));
      problems.push(cycleProblem(location, ids, edges, remaining));
      for (const index of remaining.sort(earlier)) order.push(index);
      break;
    }
    placed.add(next);
    order.push(next);
    for (const target of edges[next]!) incoming[target]!--;
  }
  return {
    slots: Object.freeze(order.map((index) => slots[index]!)),
    order: Object.freeze(order),
    ids: Object.freeze(order.map((index) => ids[index]!)),
    problems,
  };
}

/** One cycle among the slots that could not be placed, named slot by slot: `"A" before "B" before "A"`. */
function cycleProblem(
  location: string,
  ids: readonly string[],
  edges: ReadonlyArray<ReadonlySet<number>>,
  remaining: readonly number[],
): OrderProblem {
  const left = new Set(remaining);
  // Every remaining slot has a remaining predecessor: walking predecessors must come back to a slot already seen.
  const path: number[] = [remaining[0]!];
  const seenAt = new Map<number, number>([[remaining[0]!, 0]]);
  for (;;) {
    const current = path[path.length - 1]!;
    const predecessor = [...left].find((index) => edges[index]!.has(current))!;
    const start = seenAt.get(predecessor);
    if (start !== undefined) {
      const cycle = path.slice(start).reverse();
      const names = [...cycle, cycle[0]!].map((index) => `"${ids[index]}"`).join(' before ');
      return {
        kind: 'order-cycle',
        id: ids[cycle[0]!]!,
        message: `the slots at "${location}" cannot be ordered: ${names} (a cycle of "before"/"after")`,
      };
    }
    seenAt.set(predecessor, path.length);
    path.push(predecessor);
  }
}

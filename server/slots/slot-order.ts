import { DEFAULT_SLOT_PRIORITY, type Slot } from '../../shared';

/** Why the slots of a location cannot be ordered as their placements ask. */
export interface OrderProblem {
  kind: 'duplicate-id' | 'missing-target' | 'order-cycle';
  /** The slot whose placement is at fault (for a cycle: one of the slots in it). */
  id: string;
  /** A duplicate id's: the registration index of the later slot, the one at fault (code's come before the configuration's). */
  index?: number;
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
  return new SlotIdIndex().idsOf(slots).ids;
}

/**
 * The ids given so far at one location, to which more slots can be appended (`registerSlots` one call after
 * another): what a registration adds is checked against them in the time of its own slots, not of the location's,
 * so a host registering thousands of slots a call at a time does not pay for each call all the slots before it.
 */
export class SlotIdIndex {
  private readonly counts = new Map<string, number>();
  private readonly taken = new Set<string>();
  /** Whether a slot given so far is placed before or after another (a cycle is then possible). */
  private placedRelative = false;

  get constrained(): boolean {
    return this.placedRelative;
  }

  /** The ids `slots` get after those given so far, and the first of them already given; nothing is added. */
  idsOf(slots: readonly Slot[]): { ids: string[]; duplicate: string | undefined } {
    const counts = new Map<string, number>();
    const taken = new Set<string>();
    let duplicate: string | undefined;
    const ids = slots.map((slot) => {
      let id = slot.placement.id;
      if (id === undefined) {
        const count = (counts.get(slot.component) ?? this.counts.get(slot.component) ?? 0) + 1;
        counts.set(slot.component, count);
        id = count === 1 ? slot.component : `${slot.component}#${count}`;
      }
      if (duplicate === undefined && (this.taken.has(id) || taken.has(id))) duplicate = id;
      taken.add(id);
      return id;
    });
    return { ids, duplicate };
  }

  /** Adds `slots` with the ids {@link idsOf} gave them. */
  add(slots: readonly Slot[], ids: readonly string[]): void {
    slots.forEach((slot, index) => {
      if (slot.placement.id === undefined) {
        this.counts.set(slot.component, (this.counts.get(slot.component) ?? 0) + 1);
      }
      this.taken.add(ids[index]!);
      this.placedRelative ||= isPlacedRelative(slot);
    });
  }
}

/** Whether a slot is placed before or after another rather than by its priority alone. */
export function isPlacedRelative(slot: Slot): boolean {
  return slot.placement.before !== undefined || slot.placement.after !== undefined;
}

/**
 * The problems that keep slots from being ordered as asked, without ordering them: what a registration must refuse
 * at once (duplicate ids, cycles), found in one pass over the ids when no slot names a target (no cycle is then
 * possible), else by ordering them. Missing targets are among them too, as orderSlots reports them.
 */
export function placementProblems(location: string, slots: readonly Slot[]): readonly OrderProblem[] {
  return slots.some(isPlacedRelative)
    ? orderSlots(location, slots).problems
    : indexIds(location, slotIds(slots)).problems;
}

/** Why a slot's id cannot be taken: an earlier slot at its location has it. */
export function duplicateIdMessage(location: string, id: string): string {
  return `two slots at "${location}" have the id "${id}"; give one of them another "id"`;
}

/** The index of each id's first slot, and a problem for each later slot with the same id. */
function indexIds(
  location: string,
  ids: readonly string[],
): { indexOf: Map<string, number>; problems: OrderProblem[] } {
  const problems: OrderProblem[] = [];
  const indexOf = new Map<string, number>();
  ids.forEach((id, index) => {
    if (indexOf.has(id)) {
      problems.push({ kind: 'duplicate-id', id, index, message: duplicateIdMessage(location, id) });
    } else indexOf.set(id, index);
  });
  return { indexOf, problems };
}

/**
 * Orders one location's slots (given in registration order: code's, then the configuration's): by priority, lower
 * first ({@link DEFAULT_SLOT_PRIORITY} when none is given), equal priorities in registration order; a slot with
 * `before` or `after` goes right next to its target, whatever its own priority (several next to one target keep
 * their registration order, each with the chain that follows or precedes it: {@link placesInGroups}). The order is a topological sort that always picks the lowest rank among the slots free
 * to go next, so a location without placements keeps its registration order exactly.
 *
 * A target not at the location is a problem (unless `elsewhere` holds it: a slot left out for now, such as one of a
 * remote not answering) and its rule is ignored; a cycle is a problem, and its slots follow the others by priority.
 */
export function orderSlots(location: string, slots: readonly Slot[], elsewhere?: ReadonlySet<string>): OrderedSlots {
  const ids = slotIds(slots);
  const { indexOf, problems } = indexIds(location, ids);

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
  const place = placesInGroups(slots, targetOf);
  const priority = (index: number) => slots[rank[index]!]!.placement.priority ?? DEFAULT_SLOT_PRIORITY;
  const earlier = (a: number, b: number) => priority(a) - priority(b) || rank[a]! - rank[b]! || place[a]! - place[b]!;
  const order: number[] = [];
  const free = new FreeSlots(earlier);
  incoming.forEach((count, index) => {
    if (count === 0) free.push(index);
  });
  while (order.length < slots.length) {
    const next = free.pop();
    if (next === undefined) {
      const placed = new Set(order);
      const remaining = slots.map((_, index) => index).filter((index) => !placed.has(index));
      problems.push(cycleProblem(location, ids, edges, remaining));
      for (const index of remaining.sort(earlier)) order.push(index);
      break;
    }
    order.push(next);
    for (const target of edges[next]!) if (--incoming[target]! === 0) free.push(target);
  }
  return {
    slots: Object.freeze(order.map((index) => slots[index]!)),
    order: Object.freeze(order),
    ids: Object.freeze(order.map((index) => ids[index]!)),
    problems,
  };
}

/**
 * Each slot's place in a walk of the placements as a tree: from each slot next to no target (in registration order),
 * the slots placed before it (each followed by its own), then the slot, then the slots placed after it (each with its
 * own), those next to one target in registration order. So a chain stays together: with Z after X, X and Y after T,
 * the walk gives T X Z Y, as Z asked to be right after X and Y only after T (with what is attached to T ahead of
 * it); mirrored, Z before X, X and Y before T gives Z X Y T. A slot that names both goes next to its `before`
 * target, as its rank does. The slots of a cycle (and those placed next to them) are not reached: they come after
 * every other, in registration order. Iterative, as a chain may be as long as the location.
 */
function placesInGroups(slots: readonly Slot[], targetOf: (index: number) => number | undefined): number[] {
  const placedBefore = slots.map((): number[] => []);
  const placedAfter = slots.map((): number[] => []);
  const roots: number[] = [];
  slots.forEach((slot, index) => {
    const target = targetOf(index);
    if (target === undefined) roots.push(index);
    else (slot.placement.before !== undefined ? placedBefore : placedAfter)[target]!.push(index);
  });
  const place = slots.map((_, index) => slots.length + index);
  let next = 0;
  // A step either walks a slot's tree (a number) or gives the slot its place (its index as `{ at }`).
  const steps: Array<number | { at: number }> = [...roots].reverse();
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if (typeof step !== 'number') {
      place[step.at] = next++;
      continue;
    }
    steps.push(...[...placedAfter[step]!].reverse(), { at: step }, ...[...placedBefore[step]!].reverse());
  }
  return place;
}

/**
 * The slots free to go next (every slot they must follow is placed), the earliest first: a binary heap, so ordering
 * a location costs O(n log n) in its slots. A host that registers its slots one call at a time orders the location
 * again on each call; picking the earliest by scanning every slot made that cubic.
 */
class FreeSlots {
  private readonly heap: number[] = [];

  constructor(private readonly earlier: (a: number, b: number) => number) {}

  push(index: number): void {
    const heap = this.heap;
    let at = heap.push(index) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.earlier(heap[parent]!, index) <= 0) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = index;
  }

  /** The earliest free slot, or undefined when none is free. */
  pop(): number | undefined {
    const heap = this.heap;
    const first = heap[0];
    const last = heap.pop();
    if (first === undefined || last === undefined || heap.length === 0) return first;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && this.earlier(heap[child + 1]!, heap[child]!) < 0) child++;
      if (this.earlier(last, heap[child]!) <= 0) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = last;
    return first;
  }
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

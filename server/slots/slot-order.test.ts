import fc from 'fast-check';
import { DEFAULT_SLOT_PRIORITY, Slot, type SlotPlacement } from '../../shared';
import { orderSlots, slotIds } from './slot-order';

const ids = (slots: readonly Slot[]) => orderSlots('header-banner', slots).ids;

describe('orderSlots', () => {
  it('keeps the registration order when no slot gives a placement', () => {
    const slots = ['C', 'A', 'B', 'A'].map((name) => Slot.make(name));
    expect(ids(slots)).toEqual(['C', 'A', 'B', 'A#2']);
    expect(orderSlots('header-banner', slots).slots).toEqual(slots);
  });

  it('orders by priority, lower first, with 50 for a slot that gives none', () => {
    expect(DEFAULT_SLOT_PRIORITY).toBe(50);
    const slots = [
      Slot.make('Late').placed({ priority: 90 }),
      Slot.make('Middle'),
      Slot.make('Early').placed({ priority: 10 }),
      Slot.make('Negative').placed({ priority: -5 }),
      Slot.make('AlsoMiddle').placed({ priority: 50 }),
    ];
    expect(ids(slots)).toEqual(['Negative', 'Early', 'Middle', 'AlsoMiddle', 'Late']);
  });

  it('keeps the registration order among equal priorities', () => {
    const slots = ['D', 'B', 'C', 'A'].map((name) => Slot.make(name).placed({ priority: 20 }));
    expect(ids(slots)).toEqual(['D', 'B', 'C', 'A']);
  });

  it('puts a slot before or after another by id, whatever their priorities', () => {
    const slots = [
      Slot.make('Banner').placed({ id: 'banner', priority: 1 }),
      Slot.make('Notice').placed({ before: 'banner', priority: 99 }),
      Slot.make('Footer').placed({ priority: 0, after: 'Other' }),
      Slot.make('Other'),
    ];
    expect(ids(slots)).toEqual(['Notice', 'banner', 'Other', 'Footer']);
    expect(orderSlots('header-banner', slots).problems).toEqual([]);
  });

  it('places a slot right after its target when nothing else wants that place earlier', () => {
    const slots = [Slot.make('A'), Slot.make('B'), Slot.make('C'), Slot.make('D').placed({ after: 'A', priority: 99 })];
    expect(ids(slots)).toEqual(['A', 'D', 'B', 'C']);
    const two = [
      Slot.make('A'),
      Slot.make('B'),
      Slot.make('X').placed({ before: 'B' }),
      Slot.make('Y').placed({ before: 'B' }),
    ];
    expect(ids(two)).toEqual(['A', 'X', 'Y', 'B']);
    const chain = [
      Slot.make('A'),
      Slot.make('B'),
      Slot.make('X').placed({ after: 'A' }),
      Slot.make('Y').placed({ after: 'X' }),
    ];
    expect(ids(chain)).toEqual(['A', 'X', 'Y', 'B']);
  });

  // docs/reference/placements.md, Order, rule 3: several next to one target keep their registration order, and a
  // chain stays together. Written by hand from that rule, not from the code.
  it('keeps a chain together when it leads one of several slots next to one target (Z after X, X and Y after T)', () => {
    const slots = [
      Slot.make('T'),
      Slot.make('X').placed({ after: 'T' }),
      Slot.make('Y').placed({ after: 'T' }),
      Slot.make('Z').placed({ after: 'X' }),
      Slot.make('U'),
    ];
    expect(ids(slots)).toEqual(['T', 'X', 'Z', 'Y', 'U']);
    expect(orderSlots('header-banner', slots).problems).toEqual([]);
  });

  it('keeps a chain together before its target too (Z before X, X and Y before T)', () => {
    const slots = [
      Slot.make('U'),
      Slot.make('T'),
      Slot.make('X').placed({ before: 'T' }),
      Slot.make('Y').placed({ before: 'T' }),
      Slot.make('Z').placed({ before: 'X' }),
    ];
    expect(ids(slots)).toEqual(['U', 'Z', 'X', 'Y', 'T']);
    expect(orderSlots('header-banner', slots).problems).toEqual([]);
  });

  it('reports a missing target, naming the slot and the target, and orders the rest', () => {
    const result = orderSlots('header-banner', [Slot.make('A').placed({ after: 'Ghost' }), Slot.make('B')]);
    expect(result.ids).toEqual(['A', 'B']);
    expect(result.problems).toEqual([
      {
        kind: 'missing-target',
        id: 'A',
        message: 'slot "A" at "header-banner" is placed after "Ghost", but no slot at "header-banner" has that id',
      },
    ]);
    expect(
      orderSlots('header-banner', [Slot.make('A').placed({ after: 'Ghost' })], new Set(['Ghost'])).problems,
    ).toEqual([]);
  });

  it('reports a cycle naming the slots in it', () => {
    const result = orderSlots('header-banner', [
      Slot.make('A').placed({ before: 'B' }),
      Slot.make('B').placed({ before: 'C' }),
      Slot.make('C').placed({ before: 'A' }),
      Slot.make('Free'),
    ]);
    // Every slot is still there (a cycle is refused at registration; this is what a request would get meanwhile).
    expect(result.ids[0]).toBe('Free');
    expect([...result.ids].sort()).toEqual(['A', 'B', 'C', 'Free']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.kind).toBe('order-cycle');
    expect(result.problems[0]!.message).toMatch(
      /"A" before "B" before "C" before "A"|"B" before "C" before "A" before "B"|"C" before "A" before "B" before "C"/,
    );
  });

  it('reports a cycle of two made of before and after', () => {
    const result = orderSlots('header-banner', [
      Slot.make('A').placed({ after: 'B' }),
      Slot.make('B').placed({ after: 'A' }),
    ]);
    expect(result.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/"[AB]" before "[AB]" before "[AB]" \(a cycle of "before"\/"after"\)/),
    ]);
    expect(result.problems[0]!.message).toContain('"A"');
    expect(result.problems[0]!.message).toContain('"B"');
  });

  it('reports two slots with the same id', () => {
    const result = orderSlots('header-banner', [
      Slot.make('A').placed({ id: 'x' }),
      Slot.make('B').placed({ id: 'x' }),
    ]);
    expect(result.problems.map((problem) => problem.kind)).toEqual(['duplicate-id']);
  });
});

/**
 * The order as its definition gives it, step by step: of the slots whose every predecessor is placed, the earliest
 * (its target's priority, then its target's registration index, then its place in the walk of its group); when none is free, the rest in that
 * order. orderSlots picks the same with a heap.
 */
function orderByScanning(slots: readonly Slot[]): string[] {
  const ids = slotIds(slots);
  const indexOf = new Map<string, number>();
  ids.forEach((id, index) => {
    if (!indexOf.has(id)) indexOf.set(id, index);
  });
  const targetOf = (index: number) => {
    const { before, after } = slots[index]!.placement;
    const target = before ?? after;
    return target === undefined ? undefined : indexOf.get(target);
  };
  const rank = slots.map((_, index) => {
    const seen = new Set([index]);
    let at = index;
    for (let next = targetOf(at); next !== undefined && !seen.has(next); next = targetOf(at)) {
      seen.add(next);
      at = next;
    }
    return at;
  });
  const predecessors = slots.map(() => new Set<number>());
  slots.forEach((slot, index) => {
    const before = slot.placement.before === undefined ? undefined : indexOf.get(slot.placement.before);
    const after = slot.placement.after === undefined ? undefined : indexOf.get(slot.placement.after);
    if (before !== undefined) predecessors[before]!.add(index);
    if (after !== undefined) predecessors[index]!.add(after);
  });
  // A slot's place in its group: its target's `before` slots (each with its own), the target, then its `after` slots
  // (each with its own), in registration order; the slots of a cycle are not reached and go last.
  const walk: number[] = [];
  const visit = (index: number) => {
    const next = slots.map((_, other) => other).filter((other) => targetOf(other) === index);
    const isBefore = (other: number) => slots[other]!.placement.before !== undefined;
    next.filter(isBefore).forEach(visit);
    walk.push(index);
    next.filter((other) => !isBefore(other)).forEach(visit);
  };
  slots.forEach((_, index) => {
    if (targetOf(index) === undefined) visit(index);
  });
  const place = (index: number) => (walk.includes(index) ? walk.indexOf(index) : slots.length + index);
  const priority = (index: number) => slots[rank[index]!]!.placement.priority ?? DEFAULT_SLOT_PRIORITY;
  const earlier = (a: number, b: number) => priority(a) - priority(b) || rank[a]! - rank[b]! || place(a) - place(b);
  const placed: number[] = [];
  let left = slots.map((_, index) => index);
  while (left.length > 0) {
    const free = left.filter((index) => [...predecessors[index]!].every((before) => placed.includes(before)));
    if (free.length === 0) {
      placed.push(...left.sort(earlier));
      break;
    }
    const next = free.sort(earlier)[0]!;
    placed.push(next);
    left = left.filter((index) => index !== next);
  }
  return placed.map((index) => ids[index]!);
}

describe('orderSlots against its definition', () => {
  const NAMES = ['A', 'B', 'C', 'D', 'E', 'F'];
  const name = fc.constantFrom(...NAMES);
  // Targets name components (the id of their first slot) or given ids; a slot's two targets differ (checkPlacement).
  const target = fc.oneof(
    name,
    name.map((each) => `${each}#2`),
    name.map((each) => each.toLowerCase()),
  );
  const placement: fc.Arbitrary<SlotPlacement> = fc
    .record(
      {
        id: fc.constantFrom(...NAMES.map((each) => each.toLowerCase())),
        priority: fc.integer({ min: -2, max: 3 }),
        before: target,
        after: target,
      },
      { requiredKeys: [] },
    )
    .filter((given) => given.before === undefined || given.before !== given.after);
  const slot = fc.tuple(name, placement).map(([component, placed]) => Slot.make(component).placed(placed));

  it('orders any slots (ties, chains, missing targets, cycles, duplicate ids) as the step-by-step scan does', () => {
    fc.assert(
      fc.property(fc.array(slot, { maxLength: 40 }), (slots) => {
        expect(orderSlots('header-banner', slots).ids).toEqual(orderByScanning(slots));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('slotIds', () => {
  it('derives the component name, numbered from the second of the same component, unless an id is given', () => {
    expect(
      slotIds([Slot.make('A'), Slot.make('A').placed({ id: 'mine' }), Slot.make('A'), Slot.make('B'), Slot.make('A')]),
    ).toEqual(['A', 'mine', 'A#2', 'B', 'A#3']);
  });
});

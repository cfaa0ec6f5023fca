/**
 * What the `visibleWhen` rules cost a `/meta` request, counted rather than timed: every evaluation of a flags rule
 * asks the viewer's flag set once, so a counting set counts evaluations. A request evaluates each distinct rule once,
 * however many slots share it: at most linear in the ruled slots, nothing for the slots without a rule. `/meta`
 * answers every location (the host keeps the answer for every page of the session), so the distinct rules of every
 * location count, not only those of one page.
 */
import { Slot, type SlotLocationValue } from '../../shared';
import { SlotRegistry } from './slot-registry';
import { SlotsPayloadCache } from './slots-payload';
import type { Viewer } from './visibility-rule';
import { VisibleSlots } from './visible-slots';

/** A flag set that counts its lookups: one per evaluated single-flag rule. */
class CountingFlags extends Set<string> {
  lookups = 0;

  override has(flag: string): boolean {
    this.lookups += 1;
    return super.has(flag);
  }
}

/** `ruled` slots per location, with `distinct` different rules among each location's (0: every slot its own). */
function registryWith(
  ruled: Partial<Record<SlotLocationValue, number>>,
  unruled: number,
  distinct = 0,
): SlotsPayloadCache {
  const registry = new SlotRegistry();
  for (const [location, count] of Object.entries(ruled)) {
    registry.register({
      [location]: Array.from({ length: count ?? 0 }, (_, index) =>
        Slot.make('Ruled', { index }).placed({
          visibleWhen: { flags: [`${location}-flag-${distinct === 0 ? index : index % distinct}`] },
        }),
      ),
    });
  }
  registry.register({
    'dashboard-after-cards': Array.from({ length: unruled }, (_, index) => Slot.make('Plain', { index })),
  });
  return new SlotsPayloadCache(registry);
}

/** Rule evaluations of one `/meta` request's slot part (the second: the first also builds the cached part). */
function evaluationsPerRequest(cache: SlotsPayloadCache): number {
  const visible = new VisibleSlots();
  const flags = new CountingFlags(['dashboard-before-cards-flag-1']);
  const viewer: Viewer = { roles: ['staff'], permissions: [], tenant: 'acme', flags };
  visible.of(cache.current(), viewer);
  flags.lookups = 0;
  visible.of(cache.current(), viewer);
  return flags.lookups;
}

describe('the cost of visibleWhen rules per /meta request', () => {
  it('is one evaluation per distinct rule, however many slots share it', () => {
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 10 }, 0, 3))).toBe(3);
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 1_000 }, 0, 3))).toBe(3);
  });

  it('is at most linear in the ruled slots: one each when every slot has a rule of its own', () => {
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 10 }, 0))).toBe(10);
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 100 }, 0))).toBe(100);
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 1_000 }, 0))).toBe(1_000);
  });

  it('costs nothing for the slots without a rule, however many', () => {
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 50 }, 0))).toBe(50);
    expect(evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 50 }, 1_000))).toBe(50);
    expect(evaluationsPerRequest(registryWith({}, 1_000))).toBe(0);
  });

  it('counts the rules of every location, since /meta answers them all, not those of one page', () => {
    const onePage = evaluationsPerRequest(registryWith({ 'dashboard-before-cards': 40 }, 0));
    const twoPages = evaluationsPerRequest(
      registryWith({ 'dashboard-before-cards': 40, 'resource-page-actions': 60 }, 0),
    );
    expect(onePage).toBe(40);
    expect(twoPages).toBe(100);
  });

  it('still leaves out exactly the slots whose shared rule fails', () => {
    const cache = registryWith({ 'dashboard-before-cards': 9 }, 0, 3);
    const viewer: Viewer = {
      roles: [],
      permissions: [],
      tenant: null,
      flags: new Set(['dashboard-before-cards-flag-1']),
    };
    const part = new VisibleSlots().of(cache.current(), viewer);
    const shown = (part.map['dashboard-before-cards'] ?? []).map((entry) => entry.props.index);
    expect(shown).toEqual([1, 4, 7]);
  });
});

import type { RemoteRegistry } from '../remotes/remote-registry';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { ResourceRegistry } from '../resources/resource-registry';
import type { SlotLocation, Slot, SlotPlacedBy } from '../../shared';
import { configuredSource, placedConfiguredSlots } from '../slots/configured-slots';
import { configuredFormPlaceProblems, configuredFormTwiceProblems } from '../resources/configured-form-items';
import { codeSlots } from './code-slots';
import { formFieldProblemsOf } from './form-field-props';
import { allowListProblems, type LocationAllowLists } from '../slots/location-allow-lists';
import type { SlotProblem } from '../slots/slot-contract';
import { orderSlots, type OrderProblem } from '../slots/slot-order';
import type { SlotRegistry } from '../slots/slot-registry';

/** What the slot check reads: the slots of code and of resource forms, and the remotes that provide components. */
export interface SlotCheckSubjects {
  slots: SlotRegistry;
  resources: ResourceRegistry;
  remoteRegistry: RemoteRegistry;
  allowLists: LocationAllowLists;
}

/**
 * The slot check: every slot (code, resource forms, REMOTES_CONFIG's slots and form slots) against the remotes' descriptors, those of
 * `config` (a reload being considered) or of the configuration in use. With no remote at all (nothing built, no
 * REMOTES_CONFIG) there is nothing to check against: none is reported.
 */
export function checkSlots(subjects: SlotCheckSubjects, config?: RemotesConfig): SlotProblem[] {
  const { remoteRegistry } = subjects;
  const placement = [
    ...placementProblems(subjects.slots.registeredByCode(), config ?? remoteRegistry.config),
    ...configuredFormPlaceProblems(subjects.resources, (config ?? remoteRegistry.config).forms),
    ...configuredFormTwiceProblems(subjects.resources, (config ?? remoteRegistry.config).forms),
  ];
  const remotes = remoteRegistry.contractRemotes(config);
  if (remotes.known.length === 0 && remotes.waiting.length === 0 && remotes.disabled.length === 0) return placement;
  const code = codeSlots(subjects.slots, subjects.resources);
  const configured = placedConfiguredSlots((config ?? remoteRegistry.config).slots).flatMap(({ placed }) => placed);
  const allowed = (location: SlotLocation) => subjects.allowLists.allowed(location, config);
  return [
    ...placement,
    ...remoteRegistry.contract.check(code, remotes),
    ...remoteRegistry.configuredSlotProblems(config),
    ...formFieldProblemsOf(subjects.resources, (config ?? remoteRegistry.config).forms, remotes),
    ...allowListProblems([...code, ...configured], remotes, allowed),
  ];
}

/**
 * The order of every location, with all the slots code (`byCode`) and the configuration place there (also those of a
 * remote not answering now): a duplicate id, a `before`/`after` naming no slot of the location, a cycle. Each refuses
 * the start or the reload, whichever remote answers. `only` keeps some kinds (what can be told without code's slots).
 */
export function placementProblems(
  byCode: ReadonlyMap<SlotLocation, readonly Slot[]>,
  config: RemotesConfig,
  only: (problem: OrderProblem) => boolean = () => true,
): SlotProblem[] {
  // Each slot with who placed it and its position as its other problems give it: code's among code's slots of the
  // location, a configured one among the configuration's (placedConfiguredSlots), in the order each gave them.
  type Placed = { slot: Slot; remote: string | null; source: SlotPlacedBy; position: number };
  const byLocation = new Map<SlotLocation, Placed[]>();
  for (const [location, slots] of byCode) {
    byLocation.set(
      location,
      slots.map((slot, position) => ({ slot, remote: null, source: 'code', position })),
    );
  }
  for (const configured of config.slots) {
    const placed = byLocation.get(configured.location) ?? [];
    const position = placed.filter((item) => item.source !== 'code').length;
    const { slot, remote } = configured;
    byLocation.set(configured.location, [...placed, { slot, remote, source: configuredSource(configured), position }]);
  }
  return [...byLocation].flatMap(([location, placed]) => {
    const ordered = orderSlots(
      location.value,
      placed.map((item) => item.slot),
    );
    return ordered.problems.filter(only).map((problem): SlotProblem => {
      // A duplicate id is the later slot's fault (the configuration's, when it takes an id of code's).
      const index = problem.index ?? ordered.order[ordered.ids.indexOf(problem.id)]!;
      const item = placed[index]!;
      return {
        kind: 'placement-invalid',
        location: location.value,
        position: `[${item.position}]`,
        source: item.source,
        component: item.slot.component,
        remote: item.remote,
        path: null,
        message: problem.message,
        blocking: true,
      };
    });
  });
}

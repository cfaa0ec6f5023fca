import type { RemoteRelease } from '../../shared';
import { placedConfiguredForm } from '../slots/configured-forms';
import { placedConfiguredSlots } from '../slots/configured-slots';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { ResourceRegistry } from '../resources/resource-registry';
import { codeSlots } from '../slot-check/code-slots';
import { formFieldProblemsOf } from '../slot-check/form-field-props';
import { allowListProblems, type LocationAllowLists } from '../slots/location-allow-lists';
import { formatSlotProblemsByPlacement, type ContractRemotes } from '../slots/slot-contract';
import type { SlotRegistry } from '../slots/slot-registry';

/** The placements a release is checked against: code, resource forms, REMOTES_CONFIG (slots and form slots). */
export interface ReleaseCheckSubjects {
  slots: SlotRegistry;
  resources: ResourceRegistry;
  remoteRegistry: RemoteRegistry;
  allowLists: LocationAllowLists;
}

type ReleaseContract = Pick<RemoteRelease, 'remote' | 'components' | 'formComponents' | 'props'>;

/**
 * What would break if `release` served its remote: every current placement (code slots, resource form slots,
 * REMOTES_CONFIG slots), and the fields its form slots' props name, checked against the release's descriptor in place of what serves the remote now. Only the
 * blocking problems that are the release's doing are listed: a slot of its remote failing, or a slot of a component
 * its remote provides now and the release drops. Problems of other remotes are not its doing. One line per placement
 * broken, with all its problems (formatSlotProblemsByPlacement): as many lines as placements.
 */
export function releaseProblems(subjects: ReleaseCheckSubjects, release: ReleaseContract): string[] {
  const { remoteRegistry } = subjects;
  const now = remoteRegistry.contractRemotes();
  const others = (remote: { name: string }) => remote.name !== release.remote;
  const providedNow = new Set(now.known.find((remote) => remote.name === release.remote)?.components ?? []);
  const withRelease: ContractRemotes = {
    known: [
      ...now.known.filter(others),
      {
        name: release.remote,
        components: release.components,
        formComponents: release.formComponents,
        props: release.props,
      },
    ],
    disabled: now.disabled.filter(others),
    waiting: now.waiting.filter(others),
  };
  const placed = [
    ...codeSlots(subjects.slots, subjects.resources),
    ...placedConfiguredSlots(remoteRegistry.configuredSlots()).flatMap(({ placed: slots }) => slots),
  ];
  const forms = remoteRegistry.configuredForms().map(placedConfiguredForm);
  const allowed = (location: Parameters<LocationAllowLists['allowed']>[0]) => subjects.allowLists.allowed(location);
  const problems = [
    ...remoteRegistry.contract.check([...placed, ...forms], withRelease),
    ...allowListProblems(placed, withRelease, allowed),
    ...formFieldProblemsOf(subjects.resources, remoteRegistry.configuredForms(), withRelease),
  ].filter(
    (problem) =>
      // A pattern the product does not run is left unchecked in a release already in force; a new one is refused.
      (problem.kind === 'pattern-not-checked' && problem.remote === release.remote) ||
      (problem.blocking &&
        (problem.remote === release.remote ||
          (problem.kind === 'unknown-component' && providedNow.has(problem.component)))),
  );
  return formatSlotProblemsByPlacement(problems);
}

import type { IRouter } from 'express';
import {
  describeRule,
  type InspectedFormSlot,
  type InspectedSlot,
  type Slot,
  type SlotInspectionPayload,
  type SlotLocation,
  type SlotPlacedBy,
} from '../../shared';
import { requireSession } from '../auth/require-session';
import { jsonRoute } from '../http/json-route';
import { placedConfiguredForm } from '../slots/configured-forms';
import { configuredSource } from '../slots/configured-slots';
import { inspectRemotes, unpublishedUrls } from '../remotes/inspect-remotes';
import { configuredFormPlaceProblems } from '../resources/configured-form-items';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { RegisteredResource } from '../resources/registered-resource';
import type { ResourceRegistry } from '../resources/resource-registry';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { requestViewer } from '../slots/request-viewer';
import { formSlots } from './code-slots';
import { formFieldProblems } from './form-field-props';
import { allowListProblems, type LocationAllowLists } from '../slots/location-allow-lists';
import { placedSlots, type PlacedSlot, type SlotProblem } from '../slots/slot-contract';
import type { SlotRegistry } from '../slots/slot-registry';
import { ruleShowerFor, type ShowRule } from '../slots/shown-rule';
import { ruleHolds, type Viewer } from '../slots/visibility-rule';

/**
 * "Why is my component not on the page?", answered by the server: every slot of every location with where it
 * comes from (code, REMOTES_CONFIG or the placements revision in force), the remote that provides it, who may see it, and what stops it from
 * rendering (the same slot check as at start-up: unknown component, remote disabled or not answering, props
 * failing the schema); every remote with its entry, its status and the components that declare a props schema.
 * Configured slots that are left out are listed with the reason. The slots among each resource form's fields are
 * listed per resource, checked as the start-up checks them (their component must be a form component, and a prop
 * its schema marks as a field name must name a field of the resource).
 *
 * It never tells a user more than their own pages carry (the inspector is for every signed-in user, of any tenant):
 * props only of the slots their `/meta` sends (a slot whose `visibleWhen` rule fails for them is listed with its
 * rule, `hiddenByRule` saying why, and `props: null`; the ids of tenants the user may not read are
 * counted in its rule, not named: shown-rule.ts) and of the form
 * slots (`GET /api/resources/:name` sends them); a slot left out (a configured slot that cannot render) is listed
 * with `props: null` and its problems without the offending values, which the server's log has. Remotes: see
 * inspectRemotes.
 */
export function inspectSlots(
  registry: SlotRegistry,
  resources: ResourceRegistry,
  remoteRegistry: RemoteRegistry,
  viewer: Viewer,
  allowLists: LocationAllowLists,
  showRule: ShowRule,
): SlotInspectionPayload {
  const remotes = inspectRemotes(remoteRegistry);
  const unpublished = unpublishedUrls(remoteRegistry);
  const contractRemotes = remoteRegistry.contractRemotes();
  // What this viewer's /meta sends: the registry's slots now (code's, and the configured ones that can render) whose
  // rule holds for them.
  const registered = [...registry.snapshot().values()].flat();
  const holds = (slot: Slot) =>
    slot.placement.visibleWhen === undefined || ruleHolds(slot.placement.visibleWhen, viewer);
  const sent = new Set<Slot>(registered.filter(holds));
  const ids = new Map<Slot, string>();
  for (const placed of registry.placed().values()) for (const { slot, id } of placed) ids.set(slot, id);
  const providers = new Map<string, string>();
  for (const remote of contractRemotes.known)
    for (const component of remote.components) providers.set(component, remote.name);

  /** The slot `placed` starts with (its content slots follow), as listed; null when there is none. */
  const inspect = (
    placed: PlacedSlot[],
    source: SlotPlacedBy,
    visibility: InspectedSlot['visibility'],
    shown: boolean,
    inForm?: RegisteredResource,
  ): InspectedSlot | null => {
    const [top] = placed;
    if (top === undefined) return null;
    const problems = [
      ...remoteRegistry.contract.check(placed, contractRemotes),
      ...allowListProblems(placed, contractRemotes, (location) => allowLists.allowed(location)),
      ...(inForm === undefined ? [] : formFieldProblems(top, inForm, contractRemotes)),
    ];
    const rule = top.slot.placement.visibleWhen;
    return {
      ...placementOf(top.slot, ids.get(top.slot), rule !== undefined && !holds(top.slot), showRule),
      component: top.slot.component,
      props: shown ? top.slot.toEntry().props : null,
      remote:
        top.remote ?? providers.get(top.slot.component) ?? problems.find((p) => p.remote !== null)?.remote ?? null,
      source,
      visibility,
      problems: problems.map((problem) => unpublished(describeProblem(problem, top, shown))),
    };
  };

  const locations: Record<string, InspectedSlot[]> = {};
  const add = (location: SlotLocation, placed: PlacedSlot[], source: SlotPlacedBy) => {
    const top = placed[0]?.slot;
    const visibility = location.isPublic() ? 'public' : 'protected';
    const inspected = inspect(placed, source, visibility, top !== undefined && sent.has(top));
    if (inspected !== null) (locations[location.value] ??= []).push(inspected);
  };
  for (const [location, slots] of registry.registeredByCode()) {
    slots.forEach((slot, index) => add(location, placedSlots(location.value, [slot], 'code', null, '', index), 'code'));
  }
  const counts = new Map<string, number>();
  for (const configured of remoteRegistry.configuredSlots()) {
    const index = counts.get(configured.location.value) ?? 0;
    counts.set(configured.location.value, index + 1);
    const { location, slot, remote } = configured;
    add(
      location,
      placedSlots(location.value, [slot], 'configuration', remote, '', index),
      configuredSource(configured),
    );
  }

  const forms: Record<string, InspectedFormSlot[]> = {};
  for (const resource of resources.list()) {
    for (const { index, placed } of formSlots(resource)) {
      // A form is only ever shown to signed-in staff, who get its definition with these props.
      const inspected = inspect([placed], 'code', 'protected', true, resource);
      if (inspected !== null) (forms[resource.name] ??= []).push({ ...inspected, position: index });
    }
  }
  // Those of REMOTES_CONFIG's and the placements' "forms": props shown only for those the form carries now.
  for (const configured of remoteRegistry.configuredForms()) {
    const served = resources
      .get(configured.resource)
      ?.configuredFormSlots.find((each) => each.configured === configured);
    const placed = placedConfiguredForm(configured);
    const resource = resources.get(configured.resource);
    const inspected = inspect([placed], configuredSource(configured), 'protected', served !== undefined, resource);
    if (inspected === null) continue;
    const place = configuredFormPlaceProblems(resources, [configured]).map((problem) => problem.message);
    (forms[configured.resource] ??= []).push({
      ...inspected,
      problems: [...place, ...inspected.problems],
      position: served?.position ?? -1,
    });
  }
  return { locations, forms, remotes };
}

/** The slot's id and rule, and why its rule hides it from the viewer, as the inspector adds them. */
function placementOf(
  slot: Slot,
  id: string | undefined,
  hidden: boolean,
  showRule: ShowRule,
): Pick<InspectedSlot, 'id' | 'visibleWhen' | 'hiddenByRule'> {
  const placed = slot.placement.visibleWhen;
  const rule = placed === undefined ? undefined : showRule(placed);
  return {
    ...(id === undefined ? {} : { id }),
    ...(rule === undefined ? {} : { visibleWhen: rule }),
    ...(hidden && rule !== undefined
      ? { hiddenByRule: `hidden from you by its rule: shown only for ${describeRule(rule)}` }
      : {}),
  };
}

/**
 * The problem as the inspector lists it under its slot: the prop path and message, or the content slot's. Without
 * the offending value when the props are not shown (`props.amountDue must be number`).
 */
function describeProblem(problem: SlotProblem, top: PlacedSlot, propsShown: boolean): string {
  const path = problem.path === null ? '' : `${problem.path} `;
  const inContent = problem.position === top.position ? '' : `content ${problem.component} (${problem.position}): `;
  const quote = problem.quoted === undefined ? '' : `, got ${problem.quoted}`;
  const message =
    propsShown || quote === '' || !problem.message.endsWith(quote)
      ? problem.message
      : problem.message.slice(0, -quote.length);
  return `${inContent}${path}${message}`;
}

/**
 * `GET /api/slots/inspect`, for signed-in staff only (mount the session chain on its path first), answered as `/meta`
 * is: 401 signed out, 403 for an account of no tenant.
 */
export function addSlotInspectionRoute(
  router: IRouter,
  registry: SlotRegistry,
  resources: ResourceRegistry,
  remoteRegistry: RemoteRegistry,
  tenants: TenantStore,
  allowLists: LocationAllowLists,
  flags: FeatureFlagStore,
): void {
  jsonRoute(router, '/api/slots/inspect', {
    GET: [
      requireSession,
      async (req, res) => {
        // The same tenant check as /meta's: the rules are evaluated for the tenant the user works in now.
        const context = await currentTenant(req, tenants);
        const viewer = await requestViewer(context, flags);
        const showRule = await ruleShowerFor(req, context, tenants);
        res.json(inspectSlots(registry, resources, remoteRegistry, viewer, allowLists, showRule));
      },
    ],
  });
}

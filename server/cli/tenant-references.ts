import { namesInRule, type VisibilityRule } from '../../shared';
import { parsePlacements, type DocumentSlot } from '../placements/placements-document';
import { PlacementsStore } from '../placements/placements-store';
import { isPublishedRule, publishedRules } from '../placements/rule-names-check';
import { ReleaseStore } from '../releases/release-store';
import type { StorageEngine } from '../storage/storage-engine';
import { reachesNobodyWithout } from './tenant-canaries';

/** A slot of a placements document whose `visibleWhen` names the tenant. */
export interface SlotNamingTenant {
  remote: string;
  location: string;
  component: string;
}

/**
 * A canary that names the tenant: every user of it gets the canary. The removal ends it, or takes the tenant out of
 * its list (tenant-canaries.ts).
 */
export interface CanaryNamingTenant {
  remote: string;
  version: string;
  percent: number;
  /**
   * The canary gives no share and names no other tenant still there: it would reach nobody once the tenant is gone,
   * so the removal ends it; else the removal takes the tenant out of its list, and it goes on for the others.
   */
  endedWithTenant: boolean;
}

/**
 * What names a tenant outside its own data: the slots of the placements in force and of the saved draft whose rules
 * name it, which stay when it is removed (tenant:remove does not change the placements), and the canaries given to
 * it, which its removal ends (those that would reach nobody without it) or takes it out of. Read only.
 */
export interface TenantReferences {
  placementsInForce: readonly SlotNamingTenant[];
  /**
   * The saved draft's whose rules are written there (new, or changed from the placements in force): a publish checks
   * them as rules being written, and refuses a tenant there is not. A rule the draft keeps as in force is only a
   * warning then (server/placements/rule-names-check.ts), said with placementsInForce. Empty without a saved draft.
   */
  draft: readonly SlotNamingTenant[];
  canaries: readonly CanaryNamingTenant[];
}

export async function readTenantReferences(engine: StorageEngine, id: string): Promise<TenantReferences> {
  const placements = new PlacementsStore(engine);
  const [latest, draft, rollouts, tenants] = await Promise.all([
    placements.latest(),
    placements.draft(),
    new ReleaseStore(engine).rollouts(),
    engine.db.selectFrom('tenants').select('id').execute(),
  ]);
  const tenantIds = tenants.map((tenant) => tenant.id);
  // Read as the server reads them (parsePlacements, publishedRules): what a host applies, and what a publish takes for
  // a rule kept or written. Compared as stored JSON, two spellings of one rule (an item given alone or in a list) told
  // a kept rule for one written, or missed it.
  const inForce = latest ? parsePlacements(latest.document) : null;
  const published = publishedRules(inForce);
  const namingIt = (slot: DocumentSlot) => ruleNamesTenant(slot.slot.placement.visibleWhen, id);
  const placementsInForce = (inForce?.slots ?? []).filter(namingIt).map(named);
  const drafted = draft
    ? parsePlacements(draft.document)
        .slots.filter((slot) => namingIt(slot) && !isPublishedRule(published, slot))
        .map(named)
    : [];
  const canaries = rollouts.flatMap(({ remote, canary }) =>
    canary?.tenants.includes(id)
      ? [
          {
            remote,
            version: canary.version,
            percent: canary.percent,
            endedWithTenant: reachesNobodyWithout(canary, tenantIds, id),
          },
        ]
      : [],
  );
  return { placementsInForce, draft: drafted, canaries };
}

export function namesTenant(references: TenantReferences): boolean {
  return references.placementsInForce.length + references.draft.length + references.canaries.length > 0;
}

/**
 * What tenant:remove says of them, one line each, before it asks and once it removed the tenant: what names the
 * tenant, and what becomes of it. Empty when nothing does.
 */
export function describeReferences(id: string, references: TenantReferences): string[] {
  const lines: string[] = [];
  const slots = (list: readonly SlotNamingTenant[]) =>
    list.map((slot) => `${slot.component} of ${slot.remote} at ${slot.location}`).join(', ');
  if (references.placementsInForce.length > 0) {
    lines.push(
      `Named by the rules of the placements in force (kept): ${slots(references.placementsInForce)}. A rule that ` +
        `needs "${id}" then holds for nobody. Publishing other changes goes on (the placements editor shows each such ` +
        `rule with a warning), but a rule changed while it still names "${id}" is refused: take "${id}" out of each.`,
    );
  }
  if (references.draft.length > 0) {
    lines.push(
      `Named by rules written in the saved placements draft (kept): ${slots(references.draft)}. It cannot be ` +
        `published until they no longer name "${id}".`,
    );
  }
  // Only the rules are kept naming the id: the canaries are ended or changed (below).
  if (lines.length > 0) {
    lines.push(`A tenant made later with the id "${id}" would be named by them again.`);
  }
  for (const canary of references.canaries) {
    if (canary.endedWithTenant) continue;
    const others = `its other tenants${canary.percent > 0 ? ` and ${canary.percent} % of the users` : ''}`;
    lines.push(
      `Named by the canary of ${canary.remote} ${canary.version}, which goes on for ${others}: "${id}" is taken out ` +
        `of its tenants with the tenant, so that a tenant made later with the id is not in it.`,
    );
  }
  for (const canary of references.canaries) {
    if (!canary.endedWithTenant) continue;
    lines.push(
      `Named by the canary of ${canary.remote} ${canary.version}, ended with the tenant: it gives no share of the ` +
        'users and names no other tenant still there, so it would reach nobody.',
    );
  }
  return lines;
}

function named({ remote, location, slot }: DocumentSlot): SlotNamingTenant {
  return { remote, location: location.value, component: slot.component };
}

/** Whether a rule names the tenant in a `tenants` list, at any depth of `$all`, `$any` and `$not`. */
function ruleNamesTenant(rule: VisibilityRule | undefined, id: string): boolean {
  return rule !== undefined && namesInRule(rule, 'tenants').some(({ names }) => names.includes(id));
}

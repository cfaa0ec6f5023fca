import { isPlainObject } from '../../shared';
import { PlacementsStore } from '../placements/placements-store';
import { ReleaseStore } from '../releases/release-store';
import type { StorageEngine } from '../storage/storage-engine';
import { reachesNobodyWithout } from './tenant-canaries';

/** A slot of a placements document whose `visibleWhen` names the tenant. */
export interface SlotNamingTenant {
  remote: string;
  /** The location, or `resource form "<resource>"` for a form slot. */
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
  const inForceSlots = latest ? ruledSlots(latest.document) : [];
  const inForceRules = new Set(inForceSlots.map(ruleKey));
  const inForce = inForceSlots.filter((slot) => ruleNames(slot.rule, id)).map(named);
  const drafted =
    draft && JSON.stringify(draft.document) !== JSON.stringify(latest?.document ?? null)
      ? ruledSlots(draft.document)
          .filter((slot) => ruleNames(slot.rule, id) && !inForceRules.has(ruleKey(slot)))
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
  return { placementsInForce: inForce, draft: drafted, canaries };
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

/** A slot of a placements document with its rule as stored (undefined: none). */
interface RuledSlot extends SlotNamingTenant {
  rule: unknown;
}

function named({ remote, location, component }: RuledSlot): SlotNamingTenant {
  return { remote, location, component };
}

/** A slot's rule where it is, as a publish compares a draft's rules with those in force (publishedRules). */
function ruleKey({ remote, location, component, rule }: RuledSlot): string {
  return JSON.stringify([remote, location, component, rule ?? null]);
}

/** The slots of a placements document (as stored: checked when published, read here without trusting it). */
function ruledSlots(document: unknown): RuledSlot[] {
  if (!isPlainObject(document) || !Array.isArray(document.remotes)) return [];
  return document.remotes.flatMap((entry) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') return [];
    const remote = entry.name;
    const inLists = (lists: unknown, where: (key: string) => string) =>
      isPlainObject(lists)
        ? Object.entries(lists).flatMap(([key, slots]) =>
            Array.isArray(slots)
              ? slots.flatMap((slot) =>
                  isPlainObject(slot)
                    ? [{ remote, location: where(key), component: String(slot.component), rule: slot.visibleWhen }]
                    : [],
                )
              : [],
          )
        : [];
    return [
      ...inLists(entry.slots, (location) => location),
      ...inLists(entry.forms, (resource) => `resource form "${resource}"`),
    ];
  });
}

/** Whether a rule names the tenant in a `tenants` list, at any depth of `$all`, `$any` and `$not`. */
function ruleNames(rule: unknown, id: string): boolean {
  if (!isPlainObject(rule)) return false;
  if (Array.isArray(rule.tenants) && rule.tenants.includes(id)) return true;
  const parts = [
    ...(Array.isArray(rule.$all) ? rule.$all : []),
    ...(Array.isArray(rule.$any) ? rule.$any : []),
    ...(rule.$not === undefined ? [] : [rule.$not]),
  ];
  return parts.some((part) => ruleNames(part, id));
}

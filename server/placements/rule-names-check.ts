import { sql } from 'kysely';
import {
  namesInRule,
  UNKNOWN_RULE_NAME,
  unknownNamesMessage,
  type PlacementProblem,
  type SlotLocation,
  type VisibilityRule,
} from '../../shared';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { ReadableTenants } from '../slots/shown-rule';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import type { ParsedPlacements } from './placements-document';

/**
 * The tenants and feature flags there are now, both in the database: what the `tenants` and `flags` of a document's
 * rules are checked against. (Roles and permissions are fixed in code and checked as the document is read.)
 */
export interface KnownRuleNames {
  tenants: readonly string[];
  /** Every flag set at least once, on or off (FeatureFlagStore.names). */
  flags: readonly string[];
  /**
   * The rules of the newest revision published (publishedRules): a draft's rule found there unchanged may go on
   * naming a tenant or flag gone since (a tenant removed, its flag settings with it): a warning, not a refusal.
   */
  published?: PublishedRules;
}

/** The rules of a published document, each with its slot's remote, location and component (ruleKey). */
export type PublishedRules = ReadonlySet<string>;

function ruleKey(remote: string, location: SlotLocation, component: string, rule: VisibilityRule): string {
  return JSON.stringify([remote, location.value, component, rule]);
}

/**
 * The rules of a published document (none for null), as a draft's are compared with them: by the slot's remote,
 * location and component, and the rule exactly as written. A slot moved, its props, priority or order changed keeps
 * its rule; a rule changed in any way is a rule being written, checked in full.
 */
export function publishedRules(published: ParsedPlacements | null): PublishedRules {
  return new Set(
    (published?.slots ?? []).flatMap(({ remote, location, slot }) => {
      const rule = slot.placement.visibleWhen;
      return rule === undefined ? [] : [ruleKey(remote, location, slot.component, rule)];
    }),
  );
}

/**
 * Whether a slot's rule is one of the published rules, compared as publishedRules keeps them: as read (parsed), not as
 * spelt. tenant:remove tells a draft's rules written from those kept by the same test (server/cli/tenant-references.ts).
 */
export function isPublishedRule(
  published: PublishedRules,
  { remote, location, slot }: Pick<ParsedPlacements['slots'][number], 'remote' | 'location' | 'slot'>,
): boolean {
  const rule = slot.placement.visibleWhen;
  return rule !== undefined && published.has(ruleKey(remote, location, slot.component, rule));
}

/**
 * What a problem of a published rule's unknown names adds: why it does not stop a publish, and what to do. The
 * editor shows it at the slot's Shown when field, the card marking it a warning.
 */
export const PUBLISHED_RULE_NOTE =
  'The rule is published so and unchanged in the draft: a warning, not a refusal. The name matches nobody now ' +
  '(gone since it was published, such as a removed tenant): take it out; a changed rule still naming it is refused.';

export async function readKnownRuleNames(tenants: TenantStore, flags: FeatureFlagStore): Promise<KnownRuleNames> {
  const [tenantList, flagNames] = await Promise.all([tenants.list(), flags.names()]);
  return { tenants: tenantList.map((tenant) => tenant.id), flags: flagNames };
}

/**
 * What moves whenever the tenants or flags there are changed, in this process or on another host: the counter of
 * `tenants_flags_version` (schema step 22), which triggers on `tenants` and `feature_flags` move within the write's
 * own transaction, whoever writes (a host of any release since, `tenant:add`, `tenant:remove`, `flag`). One
 * primary-key read of a one-row table, on both engines, read afresh at each call. Not the engine's change stamp,
 * which moves with every write (records, accounts, sessions) and would have the lists read at nearly every poll.
 */
export async function readRuleNamesMarker(engine: StorageEngine): Promise<string> {
  const { rows } = await sql<{ version: number | string }>`SELECT version FROM tenants_flags_version`.execute(
    engine.db,
  );
  return String(rows[0]?.version ?? '');
}

/**
 * `"visibleWhen.tenants" names the unknown tenant "acmee"; tenants: acme, globex.` for each such list of a rule. To
 * someone who may not read every tenant's id (`readable`, shown-rule.ts), neither the unknown ids (a tenant that
 * does not exist is none they belong to) nor the known ones: how many of the list are unknown.
 */
function unknownNamesIn(rule: VisibilityRule, known: KnownRuleNames, readable: ReadableTenants = null): string[] {
  return (['tenants', 'flags'] as const).flatMap((key) =>
    namesInRule(rule, key).flatMap(({ path, names }) => {
      const unknown = names.filter((name) => !known[key].includes(name));
      if (unknown.length === 0) return [];
      if (key === 'tenants' && readable !== null) return [`"${path}" ${unknownHiddenTenantsMessage(unknown.length)}`];
      return [`"${path}" ${unknownNamesMessage(key, unknown, known[key])}`];
    }),
  );
}

function unknownHiddenTenantsMessage(count: number): string {
  const what = count === 1 ? 'a tenant that does not exist' : `${count} tenants that do not exist`;
  return `names ${what} (not named here: you may read the ids of the tenants you belong to only).`;
}

/**
 * A blocking problem for each list of a document's rules naming a tenant or flag that does not exist: such a rule
 * never holds for it, so a typo (`acmee`) would hide the slot from everyone, silently. Each names its slot, the list
 * in the rule, the unknown names and the known ones (the tenants' only to someone who may read every tenant's id:
 * `readable`, shown-rule.ts). A rule published so and unchanged (`known.published`) is not being written: its
 * unknown names are gone since (`tenant:remove` leaves the rules naming the tenant), and refusing them would block
 * every other change until someone edits that rule; they are a warning instead (PUBLISHED_RULE_NOTE).
 */
export function unknownRuleNameProblems(
  parsed: ParsedPlacements,
  known: KnownRuleNames,
  readable: ReadableTenants = null,
): PlacementProblem[] {
  return parsed.slots.flatMap(({ remote, location, index, slot }) => {
    const rule = slot.placement.visibleWhen;
    if (rule === undefined) return [];
    const published = known.published !== undefined && isPublishedRule(known.published, { remote, location, slot });
    return unknownNamesIn(rule, known, readable).map(
      (message): PlacementProblem => ({
        remote,
        location: location.value,
        index,
        component: slot.component,
        kind: UNKNOWN_RULE_NAME,
        path: null,
        message: published ? `${message} ${PUBLISHED_RULE_NOTE}` : message,
        blocking: !published,
      }),
    );
  });
}

import { isPlainObject, type AuditEntry, type CanaryRollout, type JsonValue, type RemoteRollout } from '../../shared';
import type { ReadableTenants } from '../slots/shown-rule';

/**
 * What the releases API shows of a canary's tenants to the operator asking. One who may change releases has
 * releases:manage in every tenant and reads every id; one who lacks it somewhere only reads (the page says why), and
 * sees the ids of their own tenants, the others counted (`otherTenants`): which tenants exist beyond one's own is not
 * for a member of one to learn, as in rules (shown-rule.ts). What the canary does is unchanged.
 */
export function canaryShownTo(canary: CanaryRollout, readable: ReadableTenants): CanaryRollout {
  if (readable === null) return canary;
  const tenants = canary.tenants.filter(readable);
  const others = canary.tenants.length - tenants.length;
  return others === 0 ? canary : { ...canary, tenants, otherTenants: others };
}

export function rolloutShownTo(rollout: RemoteRollout, readable: ReadableTenants): RemoteRollout {
  return rollout.canary === null ? rollout : { ...rollout, canary: canaryShownTo(rollout.canary, readable) };
}

/** An audit entry with the canary of its rollouts (before and after a change) shown as canaryShownTo decides. */
export function auditEntryShownTo(entry: AuditEntry, readable: ReadableTenants): AuditEntry {
  if (readable === null) return entry;
  return { ...entry, before: auditedShownTo(entry.before, readable), after: auditedShownTo(entry.after, readable) };
}

/** A rollout as audited (`{ active, canary }`), or what else an entry holds (a version, a token's id), as it is. */
function auditedShownTo(value: JsonValue, readable: ReadableTenants): JsonValue {
  if (!isPlainObject(value) || !isPlainObject(value.canary) || !Array.isArray(value.canary.tenants)) return value;
  const canary = value.canary as unknown as CanaryRollout;
  return { ...value, canary: canaryShownTo(canary, readable) as unknown as JsonValue };
}

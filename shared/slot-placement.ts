import { isPlainObject } from './json';
import { describe } from './names';
import { isStaffPermission, STAFF_PERMISSIONS } from './staff-permissions';

/**
 * Where a slot stands among the others of its location, and for whom it is shown: the placement a registration (code
 * or REMOTES_CONFIG) may add to a slot. It never travels to the host: `/slots` and `/meta` carry the resolved order
 * as the order of their lists, and leave out the slots a viewer may not see.
 */
export interface SlotPlacement {
  /** The slot's id at its location, for `before`/`after`; derived from the component name when not given. */
  id?: string;
  /** Lower first; {@link DEFAULT_SLOT_PRIORITY} when not given; equal priorities keep the registration order. */
  priority?: number;
  /** The id of a slot of the same location this one goes right before (a stronger rule than priorities). */
  before?: string;
  /** The id of a slot of the same location this one goes after. */
  after?: string;
  /** Evaluated per request by the server: a slot whose rule fails is never sent. */
  visibleWhen?: VisibilityRule;
}

/**
 * The priority of a slot that gives none: the middle of 0..100, so a slot can be put before or after the others
 * without every other registration giving one.
 */
export const DEFAULT_SLOT_PRIORITY = 50;

/** A slot id: a letter or digit, then letters, digits and `_-.:#/`, at most 128 characters. */
export const SLOT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:#/-]{0,127}$/;

/** A feature flag's name (`new-billing`): lower-case kebab-case, at most 64 characters. */
export const FLAG_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * Who sees a slot, as data: `{ "roles": [...] }` (the user has one of them in the current tenant),
 * `{ "permissions": [...] }` (the user has one of them there: staff-permissions.ts), `{ "tenants": [...] }` (the
 * current tenant is one of them), `{ "flags": [...] }` (one of these feature flags is on, for the tenant or
 * globally), and `$all`, `$any`, `$not` around them.
 */
export type VisibilityRule =
  | { readonly roles: readonly string[] }
  | { readonly permissions: readonly string[] }
  | { readonly tenants: readonly string[] }
  | { readonly flags: readonly string[] }
  | { readonly $all: readonly VisibilityRule[] }
  | { readonly $any: readonly VisibilityRule[] }
  | { readonly $not: VisibilityRule };

/** The rule's keys; a rule object has exactly one. */
export const VISIBILITY_RULE_KEYS = ['roles', 'permissions', 'tenants', 'flags', '$all', '$any', '$not'] as const;

/** Rules nest at most this deep: a rule is configuration, not a program. */
const MAX_RULE_DEPTH = 8;

export class InvalidPlacementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPlacementError';
  }
}

const PLACEMENT_KEYS = new Set(['id', 'priority', 'before', 'after', 'visibleWhen']);

/**
 * A placement checked and frozen: known keys only, an id and targets of the id pattern, an integer priority, a
 * well-formed rule. Errors start with `where` (the slot's name, or its place in REMOTES_CONFIG).
 */
export function checkPlacement(value: unknown, where: string): Readonly<SlotPlacement> {
  if (!isPlainObject(value)) throw new InvalidPlacementError(`${where}: the placement must be an object.`);
  const unknownKeys = Object.keys(value).filter((key) => !PLACEMENT_KEYS.has(key));
  if (unknownKeys.length > 0) {
    throw new InvalidPlacementError(
      `${where}: unknown placement key(s) ${unknownKeys.join(', ')}; allowed: ${[...PLACEMENT_KEYS].join(', ')}.`,
    );
  }
  const placement: SlotPlacement = {};
  for (const key of ['id', 'before', 'after'] as const) {
    const given = value[key];
    if (given === undefined) continue;
    if (typeof given !== 'string' || !SLOT_ID_PATTERN.test(given)) {
      throw new InvalidPlacementError(
        `${where}: "${key}" must be a slot id matching ${SLOT_ID_PATTERN}, got ${describe(given)}.`,
      );
    }
    placement[key] = given;
  }
  if (placement.before !== undefined && placement.before === placement.after) {
    throw new InvalidPlacementError(`${where}: "before" and "after" both name "${placement.before}".`);
  }
  if (value.priority !== undefined) {
    if (typeof value.priority !== 'number' || !Number.isSafeInteger(value.priority)) {
      throw new InvalidPlacementError(`${where}: "priority" must be an integer, got ${describe(value.priority)}.`);
    }
    placement.priority = value.priority;
  }
  if (value.visibleWhen !== undefined) placement.visibleWhen = checkVisibilityRule(value.visibleWhen, where);
  return Object.freeze(placement);
}

/** A rule checked and deep-frozen; throws InvalidPlacementError naming the offending part (`visibleWhen.$all[1]`). */
export function checkVisibilityRule(value: unknown, where: string, path = 'visibleWhen', depth = 0): VisibilityRule {
  const at = `${where}: "${path}"`;
  if (depth > MAX_RULE_DEPTH) throw new InvalidPlacementError(`${at} nests deeper than ${MAX_RULE_DEPTH} levels.`);
  if (!isPlainObject(value) || Object.keys(value).length !== 1) {
    throw new InvalidPlacementError(
      `${at} must be an object with exactly one of ${VISIBILITY_RULE_KEYS.join(', ')}, got ${describe(value)}.`,
    );
  }
  const [key] = Object.keys(value) as [string];
  const operand = value[key];
  switch (key) {
    case 'flags':
      if (!Array.isArray(operand) || operand.length === 0 || !operand.every((item) => isFlagName(item))) {
        throw new InvalidPlacementError(
          `${where}: "${path}.flags" must be a non-empty list of flag names (${FLAG_NAME_PATTERN}), got ${describe(operand)}.`,
        );
      }
      return Object.freeze({ flags: Object.freeze([...(operand as string[])]) });
    case 'permissions': {
      if (!Array.isArray(operand) || operand.length === 0) {
        throw new InvalidPlacementError(
          `${where}: "${path}.permissions" must be a non-empty list of permissions (${STAFF_PERMISSIONS.join(', ')}), ` +
            `got ${describe(operand)}.`,
        );
      }
      // A closed set, unlike roles: a misspelt permission would hide the slot from everyone, silently.
      const unknown = operand.find((item) => !isStaffPermission(item));
      if (unknown !== undefined) {
        throw new InvalidPlacementError(
          `${where}: "${path}.permissions" names the unknown permission ` +
            `${typeof unknown === 'string' ? JSON.stringify(unknown) : describe(unknown)}; permissions: ` +
            `${STAFF_PERMISSIONS.join(', ')}.`,
        );
      }
      return Object.freeze({ permissions: Object.freeze([...(operand as string[])]) });
    }
    case 'roles':
    case 'tenants': {
      if (!Array.isArray(operand) || operand.length === 0 || !operand.every((item) => isName(item))) {
        throw new InvalidPlacementError(
          `${where}: "${path}.${key}" must be a non-empty list of names, got ${describe(operand)}.`,
        );
      }
      return Object.freeze({ [key]: Object.freeze([...(operand as string[])]) }) as VisibilityRule;
    }
    case '$all':
    case '$any': {
      if (!Array.isArray(operand) || operand.length === 0) {
        throw new InvalidPlacementError(
          `${where}: "${path}.${key}" must be a non-empty list of rules, got ${describe(operand)}.`,
        );
      }
      const rules = operand.map((rule, index) =>
        checkVisibilityRule(rule, where, `${path}.${key}[${index}]`, depth + 1),
      );
      return Object.freeze({ [key]: Object.freeze(rules) }) as VisibilityRule;
    }
    case '$not':
      return Object.freeze({ $not: checkVisibilityRule(operand, where, `${path}.$not`, depth + 1) });
    default:
      throw new InvalidPlacementError(
        `${at} has the unknown operator "${key}"; operators: ${VISIBILITY_RULE_KEYS.join(', ')}.`,
      );
  }
}

function isFlagName(value: unknown): value is string {
  return typeof value === 'string' && FLAG_NAME_PATTERN.test(value);
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 128;
}

/**
 * Whether the rule reads something only a signed-in user has (roles, permissions, a current tenant): such a rule cannot be
 * evaluated for `GET /slots`, so a slot at a public location may not carry one. Flags can: without a session, the
 * global settings apply.
 */
export function ruleNeedsUser(rule: VisibilityRule): boolean {
  if ('flags' in rule) return false;
  if ('roles' in rule || 'permissions' in rule || 'tenants' in rule) return true;
  if ('$all' in rule) return rule.$all.some(ruleNeedsUser);
  if ('$any' in rule) return rule.$any.some(ruleNeedsUser);
  return ruleNeedsUser(rule.$not);
}

/** A rule in words, for the inspector and the location catalogue: `role operator and not tenant acme`. */
export function describeRule(rule: VisibilityRule): string {
  const group = (parts: readonly VisibilityRule[], word: string) =>
    parts.length === 1 ? describeRule(parts[0]!) : `(${parts.map(describeRule).join(` ${word} `)})`;
  if ('roles' in rule) return `role ${rule.roles.join(' or ')}`;
  if ('permissions' in rule) return `permission ${rule.permissions.join(' or ')}`;
  if ('tenants' in rule) return `tenant ${rule.tenants.join(' or ')}`;
  if ('flags' in rule) return `flag ${rule.flags.join(' or ')} on`;
  if ('$all' in rule) return group(rule.$all, 'and');
  if ('$any' in rule) return group(rule.$any, 'or');
  return `not ${describeRule(rule.$not)}`;
}

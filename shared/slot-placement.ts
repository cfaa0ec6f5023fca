import { isPlainObject } from './json';
import { describe } from './names';
import { invalidFlagNamesMessage, unknownNamesMessage } from './rule-names';
import { STAFF_PERMISSIONS } from './staff-permissions';
import { STAFF_ROLES } from './staff-roles';
import type { VisibilityRule } from './visibility-rule';

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

/** A feature flag's name (`new-billing`): lower-case kebab-case, at most 64 characters (in words: FLAG_NAME_RULE). */
export const FLAG_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

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
      const got = typeof value.priority === 'number' ? String(value.priority) : describe(value.priority);
      throw new InvalidPlacementError(`${where}: "priority" must be an integer, got ${got}.`);
    }
    placement.priority = value.priority;
  }
  if (value.visibleWhen !== undefined) placement.visibleWhen = checkVisibilityRule(value.visibleWhen, where);
  return Object.freeze(placement);
}

/** A rule checked and deep-frozen; throws InvalidPlacementError naming the offending part (`visibleWhen.$all[1]`). */
export function checkVisibilityRule(value: unknown, where: string): VisibilityRule {
  try {
    return ruleOf(value, 'visibleWhen', 0);
  } catch (error) {
    if (error instanceof RuleShapeError) throw new InvalidPlacementError(`${where}: ${error.message}`);
    throw error;
  }
}

/** What is wrong with a part of a rule, said from its path; checkVisibilityRule puts the slot's name first. */
class RuleShapeError extends Error {}

const RULE_KEYS_LISTED = VISIBILITY_RULE_KEYS.join(', ');
const RULE_EXAMPLE = '{"roles": ["editor"]}';

function ruleOf(value: unknown, path: string, depth: number): VisibilityRule {
  if (depth > MAX_RULE_DEPTH) throw new RuleShapeError(`"${path}" nests deeper than ${MAX_RULE_DEPTH} levels.`);
  if (!isPlainObject(value)) {
    throw new RuleShapeError(
      `"${path}" must be an object with one rule key (${RULE_KEYS_LISTED}), e.g. ${RULE_EXAMPLE}; ` +
        `got ${describeOperand(value)}.`,
    );
  }
  const keys = Object.keys(value);
  const [key] = keys;
  if (keys.length !== 1 || !isRuleKey(key)) throw new RuleShapeError(keysProblem(value, keys, path, depth));
  const operand = value[key];
  switch (key) {
    case 'roles':
      return Object.freeze({ roles: closedNamesOf('roles', operand, path, STAFF_ROLES) });
    case 'permissions':
      return Object.freeze({ permissions: closedNamesOf('permissions', operand, path, STAFF_PERMISSIONS) });
    case 'tenants':
      return Object.freeze({ tenants: tenantIdsOf(operand, path) });
    case 'flags':
      return Object.freeze({ flags: flagNamesOf(operand, path) });
    case '$all':
    case '$any': {
      if (!Array.isArray(operand) || operand.length === 0) {
        throw new RuleShapeError(
          `"${path}.${key}" must be a non-empty list of rules, got ${describeOperand(operand)}.`,
        );
      }
      const rules = operand.map((rule, index) => ruleOf(rule, `${path}.${key}[${index}]`, depth + 1));
      return Object.freeze({ [key]: Object.freeze(rules) }) as VisibilityRule;
    }
    case '$not':
      return Object.freeze({ $not: ruleOf(operand, `${path}.$not`, depth + 1) });
  }
}

/**
 * Why an object with other than one rule key is no rule, all of it at once: how many keys it has where one is
 * expected, which of them are no rule key, and what is wrong with the operands of those that are (so that fixing
 * `{"roles": "editor", "colour": 1}` takes one round, not three).
 */
function keysProblem(value: Record<string, unknown>, keys: readonly string[], path: string, depth: number): string {
  if (keys.length === 0) {
    return `"${path}" is an empty object; a rule has one key (${RULE_KEYS_LISTED}), e.g. ${RULE_EXAMPLE}.`;
  }
  const unknown = keys.filter((key) => !isRuleKey(key));
  const known = keys.filter(isRuleKey);
  const sentences: string[] = [];
  if (keys.length > 1) {
    sentences.push(
      `"${path}" has ${keys.length} keys (${keys.join(', ')}) where a rule has exactly one` +
        (unknown.length === 0
          ? `: give each its own rule, inside {"$all": [...]} (all must hold) or {"$any": [...]} (one must).`
          : '.'),
    );
  }
  if (unknown.length > 0) {
    const named = unknown.map((key) => JSON.stringify(key)).join(', ');
    const is = unknown.length === 1 ? 'is not a rule key' : 'are not rule keys';
    sentences.push(
      keys.length === 1
        ? `"${path}" has the key ${named}, which ${is}; rule keys: ${RULE_KEYS_LISTED}.`
        : `${named} ${is}; rule keys: ${RULE_KEYS_LISTED}.`,
    );
  }
  for (const key of known) {
    try {
      ruleOf({ [key]: value[key] }, path, depth);
    } catch (error) {
      if (!(error instanceof RuleShapeError)) throw error;
      sentences.push(error.message);
    }
  }
  return sentences.join(' ');
}

/** Roles and permissions: sets fixed in code, so a name outside them is refused here, naming the known ones. */
function closedNamesOf(
  key: 'roles' | 'permissions',
  operand: unknown,
  path: string,
  known: readonly string[],
): readonly string[] {
  const what = key === 'roles' ? 'role names' : 'permissions';
  const list = nonEmptyListOf(operand, `${path}.${key}`, `${what} (${known.join(', ')})`);
  const unknown = list.filter((item) => typeof item !== 'string' || !known.includes(item));
  if (unknown.length > 0) throw new RuleShapeError(`"${path}.${key}" ${unknownNamesMessage(key, unknown, known)}`);
  return Object.freeze([...(list as string[])]);
}

/** Tenant ids; whether each tenant exists is the database's to say (server/placements/rule-name-check.ts). */
function tenantIdsOf(operand: unknown, path: string): readonly string[] {
  const list = nonEmptyListOf(operand, `${path}.tenants`, 'tenant ids');
  const bad = list.findIndex((item) => !isName(item));
  if (bad !== -1) {
    throw new RuleShapeError(
      `"${path}.tenants[${bad}]" must be a tenant id (1 to 128 characters), got ${describeOperand(list[bad])}.`,
    );
  }
  return Object.freeze([...(list as string[])]);
}

/** Flag names of the right form; whether each flag exists is the database's to say, as for tenants. */
function flagNamesOf(operand: unknown, path: string): readonly string[] {
  const list = nonEmptyListOf(operand, `${path}.flags`, 'flag names');
  const invalid = list.filter((item) => !isFlagName(item));
  if (invalid.length > 0) throw new RuleShapeError(`"${path}.flags" ${invalidFlagNamesMessage(invalid)}`);
  return Object.freeze([...(list as string[])]);
}

function nonEmptyListOf(operand: unknown, at: string, what: string): readonly unknown[] {
  if (Array.isArray(operand) && operand.length > 0) return operand;
  // A lone name is the likeliest slip ("roles": "editor"): say how to write it.
  const hint = typeof operand === 'string' ? ` (write [${JSON.stringify(operand)}])` : '';
  throw new RuleShapeError(`"${at}" must be a non-empty list of ${what}, got ${describeOperand(operand)}${hint}.`);
}

function describeOperand(value: unknown): string {
  return Array.isArray(value) && value.length === 0 ? 'an empty list' : describe(value);
}

function isRuleKey(key: string | undefined): key is (typeof VISIBILITY_RULE_KEYS)[number] {
  return (VISIBILITY_RULE_KEYS as readonly (string | undefined)[]).includes(key);
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

/**
 * A rule as it is shown to someone who may not read every tenant's id (the inspector and the location catalogue, for
 * every signed-in member of any tenant): a `tenants` clause lists the tenants they may read and counts the others
 * (`otherTenants`), whose ids are not theirs to learn. Every VisibilityRule is one, shown whole.
 */
export type ShownVisibilityRule =
  | { readonly roles: readonly string[] }
  | { readonly permissions: readonly string[] }
  | { readonly tenants: readonly string[]; readonly otherTenants?: number }
  | { readonly flags: readonly string[] }
  | { readonly $all: readonly ShownVisibilityRule[] }
  | { readonly $any: readonly ShownVisibilityRule[] }
  | { readonly $not: ShownVisibilityRule };

/** A rule in words, for the inspector and the location catalogue: `role operator and not tenant acme`. */
export function describeRule(rule: ShownVisibilityRule): string {
  const group = (parts: readonly ShownVisibilityRule[], word: string) =>
    parts.length === 1 ? describeRule(parts[0]!) : `(${parts.map(describeRule).join(` ${word} `)})`;
  if ('roles' in rule) return `role ${rule.roles.join(' or ')}`;
  if ('permissions' in rule) return `permission ${rule.permissions.join(' or ')}`;
  if ('tenants' in rule) {
    const others = rule.otherTenants ?? 0;
    const hidden = `${others} ${others === 1 ? 'tenant' : 'tenants'} hidden from you`;
    const named = rule.tenants.length > 0 ? `tenant ${rule.tenants.join(' or ')}` : null;
    if (others === 0) return named ?? 'no tenant';
    return named === null ? hidden : `${named} or ${hidden}`;
  }
  if ('flags' in rule) return `flag ${rule.flags.join(' or ')} on`;
  if ('$all' in rule) return group(rule.$all, 'and');
  if ('$any' in rule) return group(rule.$any, 'or');
  return `not ${describeRule(rule.$not)}`;
}

import { describe } from './names';
import type { VisibilityRule } from './visibility-rule';

/**
 * The keys of a `visibleWhen` rule that list names. Each names a closed set: roles and permissions are fixed in code
 * (staff-roles.ts, staff-permissions.ts), tenants and flags are in the database. A name outside its set never
 * matches anyone, so a typo would hide the slot from everyone, silently: it is refused where it is named instead.
 */
export type RuleNameKey = 'roles' | 'permissions' | 'tenants' | 'flags';

/**
 * The kind of a placement problem about a rule naming a tenant or flag that does not exist. Its message starts with
 * the list's path in quotes (`"visibleWhen.$all[1].tenants" names the unknown tenant "acmee"; ...`): the editor says
 * it at the rule's field, at the condition that path is of.
 */
export const UNKNOWN_RULE_NAME = 'unknown-rule-name';

/** One list of names in a rule, with where it is: `{ path: 'visibleWhen.$all[1].tenants', names: ['acme'] }`. */
export interface RuleNameList {
  path: string;
  names: readonly string[];
}

/** Every `key` list of a checked rule, in the order it is written, each with its path. */
export function namesInRule(rule: VisibilityRule, key: RuleNameKey, path = 'visibleWhen'): RuleNameList[] {
  if (key in rule) return [{ path: `${path}.${key}`, names: (rule as Record<RuleNameKey, readonly string[]>)[key] }];
  if ('$all' in rule) return rule.$all.flatMap((part, index) => namesInRule(part, key, `${path}.$all[${index}]`));
  if ('$any' in rule) return rule.$any.flatMap((part, index) => namesInRule(part, key, `${path}.$any[${index}]`));
  if ('$not' in rule) return namesInRule(rule.$not, key, `${path}.$not`);
  return [];
}

const WORDS: Readonly<Record<RuleNameKey, readonly [one: string, many: string]>> = {
  roles: ['role', 'roles'],
  permissions: ['permission', 'permissions'],
  tenants: ['tenant', 'tenants'],
  flags: ['flag', 'flags'],
};

/** How many known names a refusal lists: a deployment with many tenants gets the first few and a count. */
const KNOWN_NAMED = 10;

/**
 * How a flag becomes one a rule may name: flags live only as settings in the database (server/flags), so a flag
 * exists once it has been set, on or off.
 */
export const FLAG_EXISTS_ONCE_SET = 'A flag exists once it is set, on or off: npm run flag -- set <name> off.';

/**
 * What a flag name may contain (FLAG_NAME_PATTERN, in words): every refusal of a flag name says it, since the
 * name alone does not show what is wrong with it (a space, an accent, an upper-case letter).
 */
export const FLAG_NAME_RULE =
  'a flag name starts with a lower-case letter and has only lower-case letters (a-z), digits and "-", ' +
  'at most 64 characters in all (e.g. "new-billing")';

/**
 * `names the unknown tenant "acmee"; tenants: acme, globex.`: the refusal of names outside their set, in a rule or
 * a preview's context (the caller puts where first). The known names are listed to help spot the typo.
 */
export function unknownNamesMessage(key: RuleNameKey, unknown: readonly unknown[], known: readonly string[]): string {
  const [one, many] = WORDS[key];
  const distinct = [...new Set(unknown)];
  const shown = known.slice(0, KNOWN_NAMED);
  const more = known.length > shown.length ? ` and ${known.length - shown.length} more` : '';
  const listed = known.length === 0 ? 'none yet' : `${shown.join(', ')}${more}`;
  const message =
    `names the unknown ${distinct.length === 1 ? one : many} ${distinct.map(nameInMessage).join(', ')}; ` +
    `${many}: ${listed}.`;
  return key === 'flags' ? `${message} ${FLAG_EXISTS_ONCE_SET}` : message;
}

/** `names the invalid flag name "bad flag!": a flag name starts with…`: the refusal of names no flag can have. */
export function invalidFlagNamesMessage(invalid: readonly unknown[]): string {
  const distinct = [...new Set(invalid)];
  return (
    `names the invalid flag ${distinct.length === 1 ? 'name' : 'names'} ${distinct.map(nameInMessage).join(', ')}: ` +
    `${FLAG_NAME_RULE}.`
  );
}

/** A name as a message quotes it (`"acmee"`, `""`), or what it is when it is no string (`a number`). */
function nameInMessage(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describe(value);
}

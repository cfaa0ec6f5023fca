import {
  checkVisibilityRule,
  InvalidPlacementError,
  isPlainObject,
  isStaffPermission,
  isStaffRole,
  type JsonValue,
  type PlacementChange,
  type PlacementProblem,
  type VisibilityRule,
} from '../../shared';
import {
  mapDocumentRules,
  mapRuleHolders,
  partHiddenIn,
  PROPS_HIDDEN_KEY,
} from '../../shared/placements-hidden-tenants';
import { HttpError } from '../http/http-error';
import { holdsInNoneOf, ruleShownTo, type MemberTenants, type ReadableTenants } from '../slots/shown-rule';

/**
 * The placements editor's answers as shown to the user asking. Someone who may not read every tenant's id (an
 * operator of some tenants only, who reads the page without changing it: shown-rule.ts decides) gets every rule of
 * a document with the tenants they do not belong to counted instead of named, as the location catalogue and the
 * inspector show rules: `{ "tenants": ["acme"], "otherTenants": 2 }`; a slot whose rule shows it in none of their
 * tenants has its props and content taken out (`"propsHidden": true`), as the inspector shows no props of a slot the
 * user's pages do not carry: they are other tenants' data. What is stored and served is unchanged.
 */

/** What a message says in place of a tenant id the user asking may not read. */
export const HIDDEN_TENANT = '(a tenant hidden from you)';

/** `document` shown to someone who may read `readable`'s tenant ids (whole when null): its slots as shownSlot shows them. */
export function shownDocument(document: JsonValue, readable: ReadableTenants): JsonValue {
  return readable === null ? document : mapRuleHolders(document, (slot) => shownSlot(slot, readable));
}

/**
 * A slot with its rule shown: as ruleShownTo shows it, or, when the draft's rule is no rule yet (work in progress,
 * saved with its problem), with every word of it that may be a tenant the user may not read taken out and counted all
 * the same (maskedRule). Without its props and content when its rule holds in none of the tenants `readable` accepts
 * (holdsInNoneOf): `"propsHidden": true` says so in their place. A rule that is no rule yet decides nothing (its slot
 * is served nowhere).
 */
function shownSlot(slot: Record<string, JsonValue>, readable: MemberTenants): Record<string, JsonValue> {
  const written = slot.visibleWhen as JsonValue;
  const rule = validRule(written);
  const visibleWhen = rule === null ? maskedRule(written, readable) : (ruleShownTo(rule, readable) as JsonValue);
  if (rule === null || !holdsInNoneOf(rule, readable.ids)) return { ...slot, visibleWhen };
  const { props: _props, content: _content, ...placement } = slot;
  return { ...placement, visibleWhen, [PROPS_HIDDEN_KEY]: true };
}

function validRule(value: JsonValue): VisibilityRule | null {
  try {
    return checkVisibilityRule(value, 'visibleWhen');
  } catch (error) {
    if (!(error instanceof InvalidPlacementError)) throw error;
    return null;
  }
}

/**
 * A rule that is no rule yet, shown: its shape may be any slip (`{"tenant": ["globex"]}`, `{"tenants": [["globex"]]}`,
 * the bare string `"globex"`), so no position can be trusted to hold no tenant. Every string in it that the user may
 * not read is taken out (from a list) or replaced (HIDDEN_TENANT), and each object counts those of its own entries
 * in `otherTenants`, except the role and permission names (a fixed vocabulary, never a secret) and the operands of
 * `roles`, `permissions` and `flags`, which a rule shows whole when it is one. Keys are kept: they say what the slip
 * was.
 */
function maskedRule(value: JsonValue, readable: (tenant: string) => boolean): JsonValue {
  const hides = (word: string) => !readable(word) && !isStaffRole(word) && !isStaffPermission(word);
  if (typeof value === 'string') return hides(value) ? HIDDEN_TENANT : value;
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  const counted = { hidden: 0 };
  const shown = maskedWords(value, hides, counted);
  if (counted.hidden === 0 || !isPlainObject(shown)) return shown;
  return { ...(shown as Record<string, JsonValue>), otherTenants: counted.hidden };
}

/** `value` with the words `hides` taken out of its lists (counted in `counted`); objects within count their own. */
function maskedWords(value: JsonValue, hides: (word: string) => boolean, counted: { hidden: number }): JsonValue {
  if (Array.isArray(value)) {
    return value.flatMap((item): JsonValue[] => {
      if (typeof item === 'string' && hides(item)) {
        counted.hidden += 1;
        return [];
      }
      return [isPlainObject(item) ? maskedObject(item, hides) : maskedWords(item, hides, counted)];
    });
  }
  if (isPlainObject(value)) return maskedObject(value, hides);
  if (typeof value === 'string' && hides(value)) {
    counted.hidden += 1;
    return HIDDEN_TENANT;
  }
  return value;
}

const SHOWN_WHOLE = new Set(['roles', 'permissions', 'flags']);

function maskedObject(value: JsonValue, hides: (word: string) => boolean): JsonValue {
  const counted = { hidden: 0 };
  const masked: Record<string, JsonValue> = {};
  for (const [key, part] of Object.entries(value as Record<string, JsonValue>)) {
    if (key === 'otherTenants') continue;
    masked[key] = SHOWN_WHOLE.has(key) ? part : maskedWords(part, hides, counted);
  }
  // `"tenants": "globex"` (the likeliest slip) is counted and shown as a list, as the rule would be written.
  if (typeof value === 'object' && value !== null && 'tenants' in value && masked.tenants === HIDDEN_TENANT) {
    masked.tenants = [];
  }
  return counted.hidden === 0 ? masked : { ...masked, otherTenants: counted.hidden };
}

/** The diff's changes with the rules of their slots (`before`, `after`) shown. */
export function shownChanges(changes: PlacementChange[] | null, readable: ReadableTenants): PlacementChange[] | null {
  if (changes === null || readable === null) return changes;
  return changes.map((change) => ({
    ...change,
    before: shownDocument(change.before, readable),
    after: shownDocument(change.after, readable),
  }));
}

/**
 * The problems of `document` with no id of a tenant the user may not read: a shape problem of a draft's rule quotes
 * what it got (`got the string "globex" (write ["globex"])`), so each id its rules name and `readable` refuses is
 * replaced in the messages. (A rule naming a tenant that does not exist is said without its name by the check
 * itself: rule-names-check.ts.) A problem of a slot whose props are hidden (shownSlot) is said without the value it
 * quotes (`props.discount must be number`, not `…, got "40 % for Globex"`).
 */
export function shownProblems(
  problems: PlacementProblem[],
  document: JsonValue,
  readable: ReadableTenants,
): PlacementProblem[] {
  if (readable === null) return problems;
  const hidden = new Set<string>();
  mapDocumentRules(document, (rule) => {
    for (const id of possibleTenantsIn(rule)) if (!readable(id)) hidden.add(id);
    return rule;
  });
  const quoted = [...hidden].map((id) => JSON.stringify(id));
  const propsHidden = slotsWithPropsHidden(document, readable);
  return problems.map((problem) => {
    const message = quoted.reduce((said, id) => said.split(id).join(HIDDEN_TENANT), problem.message);
    const quoting = message.indexOf(QUOTED_VALUE);
    const unquoted = quoting >= 0 && propsHidden.has(slotKey(problem.remote, problem.location, problem.index));
    return { ...problem, message: unquoted ? `${message.slice(0, quoting)}.` : message };
  });
}

/** How a check's message quotes the value it got (props-validator.ts: `must be number, got "lots"`). */
const QUOTED_VALUE = ', got ';

function slotKey(remote: string | null, location: string | null, index: number | null): string {
  return JSON.stringify([remote, location, index]);
}

/** Where `document`'s slots whose props shownSlot hides are (slotKey), as problems say where they are. */
function slotsWithPropsHidden(document: JsonValue, readable: MemberTenants): Set<string> {
  const found = new Set<string>();
  const remotes = isPlainObject(document) ? (document as Record<string, JsonValue>).remotes : undefined;
  if (!Array.isArray(remotes)) return found;
  for (const remote of remotes) {
    if (!isPlainObject(remote)) continue;
    const { name, slots } = remote as Record<string, JsonValue>;
    if (typeof name !== 'string' || !isPlainObject(slots)) continue;
    for (const [location, placed] of Object.entries(slots as Record<string, JsonValue>)) {
      if (!Array.isArray(placed)) continue;
      placed.forEach((slot, index) => {
        if (isPlainObject(slot) && 'visibleWhen' in slot) {
          if (PROPS_HIDDEN_KEY in shownSlot(slot as Record<string, JsonValue>, readable)) {
            found.add(slotKey(name, location, index));
          }
        }
      });
    }
  }
  return found;
}

/**
 * The words of a rule that may name a tenant: the ids of its `tenants` clauses when it is a rule; when it is none yet,
 * every string in it but the operands of `roles`, `permissions` and `flags` (as maskedRule hides them).
 */
function possibleTenantsIn(value: JsonValue): string[] {
  const rule = validRule(value);
  if (rule !== null) return tenantIdsOf(rule);
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(possibleTenantsIn);
  if (!isPlainObject(value)) return [];
  return Object.entries(value as Record<string, JsonValue>).flatMap(([key, part]) =>
    SHOWN_WHOLE.has(key) ? [] : possibleTenantsIn(part),
  );
}

function tenantIdsOf(rule: VisibilityRule): string[] {
  if ('tenants' in rule) return [...rule.tenants];
  if ('$all' in rule) return rule.$all.flatMap(tenantIdsOf);
  if ('$any' in rule) return rule.$any.flatMap(tenantIdsOf);
  if ('$not' in rule) return tenantIdsOf(rule.$not);
  return [];
}

/**
 * Refuses (400, nothing saved or previewed) a document shown in part (partHiddenIn): one shown to someone who may not
 * read every tenant's id, sent back. Saved, the tenants its rules count, or the props it hides, would be lost;
 * previewed, it is not what the draft holds. A document written whole never has `otherTenants` or `propsHidden`.
 */
export function refuseShownInPart(document: unknown, during: 'save' | 'preview'): void {
  const hidden = partHiddenIn(document);
  if (hidden === null) return;
  const shown =
    hidden === 'tenants'
      ? 'a rule of the document counts tenants ("otherTenants") instead of naming them'
      : `a slot of the document has its props hidden ("${PROPS_HIDDEN_KEY}")`;
  const lost = hidden === 'tenants' ? 'those tenants' : 'its props';
  const written =
    hidden === 'tenants' ? 'Write the rule with the ids of its tenants.' : 'Write the slot with its props.';
  throw HttpError.invalidRequest(
    during === 'save'
      ? `Not saved: ${shown}, as the placements editor shows the draft to someone without placements:edit in every ` +
          `tenant; saved, ${lost} would be lost. ${written}`
      : `Not previewed: ${shown}, so it is not what the draft holds. Leave "document" out to preview the ` +
          'saved draft, which the server reads whole.',
  );
}

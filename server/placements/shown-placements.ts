import {
  checkVisibilityRule,
  InvalidPlacementError,
  isPlainObject,
  type JsonValue,
  type PlacementChange,
  type PlacementProblem,
} from '../../shared';
import { documentCountsHiddenTenants, mapDocumentRules } from '../../shared/placements-hidden-tenants';
import { HttpError } from '../http/http-error';
import { ruleShownTo, type ReadableTenants } from '../slots/shown-rule';

/**
 * The placements editor's answers as shown to the user asking. Someone who may not read every tenant's id (an
 * operator of some tenants only, who reads the page without changing it: shown-rule.ts decides) gets every rule of
 * a document with the tenants they do not belong to counted instead of named, as the location catalogue and the
 * inspector show rules: `{ "tenants": ["acme"], "otherTenants": 2 }`. What is stored and served is unchanged.
 */

/** What a message says in place of a tenant id the user asking may not read. */
export const HIDDEN_TENANT = '(a tenant hidden from you)';

/** `document` with its rules shown to someone who may read `readable`'s tenant ids (whole when null). */
export function shownDocument(document: JsonValue, readable: ReadableTenants): JsonValue {
  return readable === null ? document : mapDocumentRules(document, (rule) => shownRule(rule, readable));
}

/**
 * A rule of a document, shown: a rule as ruleShownTo shows it; a draft's rule that is no rule yet (work in progress,
 * saved with its problem), with the ids of each `tenants` list taken out and counted all the same.
 */
function shownRule(value: JsonValue, readable: (tenant: string) => boolean): JsonValue {
  try {
    return ruleShownTo(checkVisibilityRule(value, 'visibleWhen'), readable) as JsonValue;
  } catch (error) {
    if (!(error instanceof InvalidPlacementError)) throw error;
    return maskedTenants(value, readable);
  }
}

function maskedTenants(value: JsonValue, readable: (tenant: string) => boolean): JsonValue {
  if (Array.isArray(value)) return value.map((item) => maskedTenants(item, readable));
  if (!isPlainObject(value)) return value;
  const masked: Record<string, JsonValue> = {};
  for (const [key, part] of Object.entries(value as Record<string, JsonValue>)) {
    masked[key] = key === 'tenants' ? part : maskedTenants(part, readable);
  }
  if (!('tenants' in masked)) return masked;
  // `"tenants": "globex"` (the likeliest slip) names a tenant too: counted as a list's would be.
  const operand = masked.tenants!;
  const shown = ruleShownTo({ tenants: idsOfOperand(operand) }, readable);
  if (!('otherTenants' in shown) || shown.otherTenants === undefined) return masked;
  const kept = Array.isArray(operand) ? operand.filter((item) => typeof item !== 'string' || readable(item)) : [];
  return { ...masked, tenants: kept, otherTenants: shown.otherTenants };
}

/** The tenant ids a `tenants` operand names, well formed or not. */
function idsOfOperand(operand: JsonValue): string[] {
  const items = Array.isArray(operand) ? operand : [operand];
  return items.filter((item): item is string => typeof item === 'string');
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
 * itself: rule-names-check.ts.)
 */
export function shownProblems(
  problems: PlacementProblem[],
  document: JsonValue,
  readable: ReadableTenants,
): PlacementProblem[] {
  if (readable === null) return problems;
  const hidden = new Set<string>();
  mapDocumentRules(document, (rule) => {
    for (const id of tenantIdsIn(rule)) if (!readable(id)) hidden.add(id);
    return rule;
  });
  if (hidden.size === 0) return problems;
  const quoted = [...hidden].map((id) => JSON.stringify(id));
  return problems.map((problem) => ({
    ...problem,
    message: quoted.reduce((message, id) => message.split(id).join(HIDDEN_TENANT), problem.message),
  }));
}

/** Every string of every `tenants` operand of a rule, well formed or not. */
function tenantIdsIn(value: JsonValue): string[] {
  if (Array.isArray(value)) return value.flatMap(tenantIdsIn);
  if (!isPlainObject(value)) return [];
  return Object.entries(value as Record<string, JsonValue>).flatMap(([key, part]) =>
    key === 'tenants' ? idsOfOperand(part) : tenantIdsIn(part),
  );
}

/**
 * Refuses (400, nothing saved or previewed) a document whose rules count tenants (`otherTenants`): one shown to
 * someone who may not read every tenant's id, sent back. Saved, the tenants it counts would be lost from its rules;
 * previewed, its rules would not be those the draft holds. A rule written whole never has the key.
 */
export function refuseCountedTenants(document: unknown, during: 'save' | 'preview'): void {
  if (!documentCountsHiddenTenants(document)) return;
  const counted = 'a rule of the document counts tenants ("otherTenants") instead of naming them';
  throw HttpError.invalidRequest(
    during === 'save'
      ? `Not saved: ${counted}, as the placements editor shows rules to someone without placements:edit in every ` +
          'tenant; saved, those tenants would be lost. Write the rule with the ids of its tenants.'
      : `Not previewed: ${counted}, so it is not the rule the draft holds. Leave "document" out to preview the ` +
          'saved draft, whose rules the server reads whole.',
  );
}

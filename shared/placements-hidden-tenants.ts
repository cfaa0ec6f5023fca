import { isPlainObject, type JsonValue } from './json';

// Its own module, imported by path: only the placements editor's page (a chunk of its own) and the server use it.

/**
 * The keys of a placements document that hold a component's own data, not placements: a `visibleWhen` key in props is
 * the component's, never a rule.
 */
const COMPONENT_DATA_KEYS = new Set(['props', 'content']);

/**
 * `document` with each of its rules (every `visibleWhen` of a slot, wherever the document holds one, even where its
 * frame is wrong) replaced by `map`'s answer. The server shows the rules of the placements editor's answers through
 * it to someone who may not read every tenant's id (server/placements/shown-placements.ts).
 */
export function mapDocumentRules(document: JsonValue, map: (rule: JsonValue) => JsonValue): JsonValue {
  if (Array.isArray(document)) return document.map((item) => mapDocumentRules(item, map));
  if (!isPlainObject(document)) return document;
  const mapped: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(document as Record<string, JsonValue>)) {
    if (key === 'visibleWhen') mapped[key] = map(value);
    else mapped[key] = COMPONENT_DATA_KEYS.has(key) ? value : mapDocumentRules(value, map);
  }
  return mapped;
}

/**
 * Whether a rule counts tenants instead of naming them (`{ "tenants": ["acme"], "otherTenants": 2 }`,
 * ShownVisibilityRule): it was shown to someone who may not read every tenant's id, and is no rule one can save.
 */
export function ruleCountsHiddenTenants(rule: unknown): boolean {
  if (Array.isArray(rule)) return rule.some(ruleCountsHiddenTenants);
  if (!isPlainObject(rule)) return false;
  return 'otherTenants' in rule || Object.values(rule).some(ruleCountsHiddenTenants);
}

/**
 * Whether a document holds a rule that counts tenants (ruleCountsHiddenTenants): the draft as shown to an operator of
 * some tenants only. Saved, it would lose the tenants it counts; previewed, its rule would be read as written.
 */
export function documentCountsHiddenTenants(document: unknown): boolean {
  let counts = false;
  mapDocumentRules(document as JsonValue, (rule) => {
    counts ||= ruleCountsHiddenTenants(rule);
    return rule;
  });
  return counts;
}

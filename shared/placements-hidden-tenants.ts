import { isPlainObject, type JsonValue } from './json';

// Its own module, imported by path: only the placements editor's page (a chunk of its own) and the server use it.

/**
 * The keys of a placements document that hold a component's own data, not placements: a `visibleWhen` key in props is
 * the component's, never a rule.
 */
const COMPONENT_DATA_KEYS = new Set(['props', 'content']);

/**
 * The key a slot shown to someone who may not read every tenant's id has in place of its props and content when its
 * rule shows it only in tenants they do not belong to (server/placements/shown-placements.ts): those are the data of
 * other tenants' pages.
 */
export const PROPS_HIDDEN_KEY = 'propsHidden';

/**
 * `document` with each object that holds a rule (a slot: every `visibleWhen`, wherever the document holds one, even
 * where its frame is wrong) replaced by `map`'s answer, its parts mapped first. Component data (`props`, `content`)
 * is not looked into.
 */
export function mapRuleHolders(
  document: JsonValue,
  map: (holder: Record<string, JsonValue>) => Record<string, JsonValue>,
): JsonValue {
  if (Array.isArray(document)) return document.map((item) => mapRuleHolders(item, map));
  if (!isPlainObject(document)) return document;
  const mapped: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(document as Record<string, JsonValue>)) {
    mapped[key] = key === 'visibleWhen' || COMPONENT_DATA_KEYS.has(key) ? value : mapRuleHolders(value, map);
  }
  return 'visibleWhen' in mapped ? map(mapped) : mapped;
}

/**
 * `document` with each of its rules replaced by `map`'s answer (mapRuleHolders). The server shows the rules of the
 * placements editor's answers through it to someone who may not read every tenant's id.
 */
export function mapDocumentRules(document: JsonValue, map: (rule: JsonValue) => JsonValue): JsonValue {
  return mapRuleHolders(document, (holder) => ({ ...holder, visibleWhen: map(holder.visibleWhen as JsonValue) }));
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
 * What of a document was hidden from the one it was shown to: a rule that counts tenants (ruleCountsHiddenTenants),
 * or a slot's props (PROPS_HIDDEN_KEY); null for a document shown whole. Such a document is the draft as shown to an
 * operator of some tenants only: saved, it would lose what it hides; previewed, it is not what the draft holds.
 */
export function partHiddenIn(document: unknown): 'tenants' | 'props' | null {
  let hidden: 'tenants' | 'props' | null = null;
  mapRuleHolders(document as JsonValue, (holder) => {
    if (ruleCountsHiddenTenants(holder.visibleWhen)) hidden ??= 'tenants';
    else if (PROPS_HIDDEN_KEY in holder) hidden ??= 'props';
    return holder;
  });
  return hidden;
}

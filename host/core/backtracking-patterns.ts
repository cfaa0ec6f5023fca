import type { JsonSchema } from '../../shared';

/** What a group read so far holds: a repetition, an alternative. */
interface GroupShape {
  repeats: boolean;
  alternates: boolean;
}

/**
 * Whether a pattern may take JavaScript's backtracking engine exponential time: a group repeated without bound
 * (`*`, `+`, `{2,}`, `{1,5}`) that itself holds a repetition or an alternative (`(a+)+`, `([a-z ]+)*`, `(a|ab)*`),
 * the shapes that try every way of splitting a text that almost matches. A conservative reading, never a parse: a
 * pattern it names may well be harmless, one it passes has no such group.
 */
export function mayBacktrackWithoutEnd(pattern: string): boolean {
  const groups: GroupShape[] = [{ repeats: false, alternates: false }];
  // The group just closed, while the next token may repeat it.
  let closed: GroupShape | null = null;
  for (let at = 0; at < pattern.length; at++) {
    const current = groups[groups.length - 1] as GroupShape;
    const char = pattern[at];
    const repetition = repetitionAt(pattern, at);
    if (repetition !== null) {
      if (repetition.many) {
        if (closed && (closed.repeats || closed.alternates)) return true;
        current.repeats = true;
      }
      at = repetition.end;
      closed = null;
      continue;
    }
    closed = null;
    if (char === '\\') {
      at++;
    } else if (char === '[') {
      at = classEnd(pattern, at);
    } else if (char === '(') {
      groups.push({ repeats: false, alternates: false });
    } else if (char === ')' && groups.length > 1) {
      const group = groups.pop() as GroupShape;
      const parent = groups[groups.length - 1] as GroupShape;
      parent.repeats ||= group.repeats;
      parent.alternates ||= group.alternates;
      closed = group;
    } else if (char === '|') {
      current.alternates = true;
    }
  }
  return false;
}

/** The repetition starting at `at` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not): whether it repeats more than once, and its last index. */
function repetitionAt(pattern: string, at: number): { many: boolean; end: number } | null {
  const char = pattern[at];
  let many: boolean;
  let end = at;
  if (char === '*' || char === '+') {
    many = true;
  } else if (char === '?') {
    many = false;
  } else if (char === '{') {
    const bounds = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (!bounds) return null;
    const max = bounds[2] === undefined ? Number(bounds[1]) : bounds[3] === '' ? Infinity : Number(bounds[3]);
    many = max > 1;
    end = at + bounds[0].length - 1;
  } else {
    return null;
  }
  if (pattern[end + 1] === '?') end++;
  return { many, end };
}

/** The index of the `]` that closes the character class opened at `at` (the pattern's end when none does). */
function classEnd(pattern: string, at: number): number {
  let index = at + 1;
  if (pattern[index] === '^') index++;
  if (pattern[index] === ']') index++;
  for (; index < pattern.length; index++) {
    if (pattern[index] === '\\') index++;
    else if (pattern[index] === ']') return index;
  }
  return pattern.length;
}

/** The keywords whose value is a schema, a list of schemas, or schemas by name. */
const ONE_SCHEMA = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const LISTS_OF_SCHEMAS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SCHEMAS_BY_NAME = ['properties', '$defs', 'definitions', 'dependentSchemas'];

const cleaned = new WeakMap<object, JsonSchema>();

/**
 * `schema` without the patterns that may backtrack without end (mayBacktrackWithoutEnd), for a check in the browser:
 * a remote team's schema is not trusted, and such a pattern would hold the page (a placements editor checking each key
 * typed) for minutes. The server checks every pattern, in linear time, when the props are saved. Kept per schema.
 */
export function withoutBacktrackingPatterns(schema: JsonSchema): JsonSchema {
  let result = cleaned.get(schema);
  if (result === undefined) {
    result = cleanedSchema(schema) as JsonSchema;
    cleaned.set(schema, result);
  }
  return result;
}

function cleanedSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const { pattern, patternProperties, ...rest } = schema as Record<string, unknown>;
  const result: Record<string, unknown> = rest;
  if (pattern !== undefined && !(typeof pattern === 'string' && mayBacktrackWithoutEnd(pattern))) {
    result.pattern = pattern;
  }
  if (patternProperties !== null && typeof patternProperties === 'object') {
    result.patternProperties = Object.fromEntries(
      Object.entries(patternProperties)
        .filter(([key]) => !mayBacktrackWithoutEnd(key))
        .map(([key, value]) => [key, cleanedSchema(value)]),
    );
  } else if (patternProperties !== undefined) {
    result.patternProperties = patternProperties;
  }
  for (const key of ONE_SCHEMA) if (key in result) result[key] = cleanedSchema(result[key]);
  for (const key of LISTS_OF_SCHEMAS) {
    if (Array.isArray(result[key])) result[key] = (result[key] as unknown[]).map(cleanedSchema);
  }
  for (const key of SCHEMAS_BY_NAME) {
    const named = result[key];
    if (named !== null && typeof named === 'object' && !Array.isArray(named)) {
      result[key] = Object.fromEntries(Object.entries(named).map(([name, value]) => [name, cleanedSchema(value)]));
    }
  }
  return result;
}

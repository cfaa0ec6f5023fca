/** JSON values as they cross the wire. Slot props and record data are data, never code. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Why a value is not plain JSON data, or null when it is. `path` names the offending place for the message. */
export function findNonJson(value: unknown, path = 'props', seen: Set<object> = new Set()): string | null {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path} is ${String(value)}, which JSON cannot carry`;
    case 'object':
      break;
    case 'undefined':
      // `{ title: undefined }` is a key JSON would drop: the component would not get what the code seems to give.
      return `${path} is undefined; props must be plain JSON data (leave the key out instead)`;
    default:
      return `${path} is a ${typeof value}; props must be plain JSON data`;
  }
  const object = value as object;
  if (seen.has(object)) return `${path} is a circular reference`;
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i++) {
        const problem = findNonJson(object[i], `${path}[${i}]`, seen);
        if (problem) return problem;
      }
      return null;
    }
    if (!isPlainObject(object)) {
      return `${path} is a ${object.constructor?.name ?? 'non-plain object'}; props must be plain JSON data`;
    }
    for (const key of Object.keys(object)) {
      const problem = findNonJson((object as Record<string, unknown>)[key], `${path}.${key}`, seen);
      if (problem) return problem;
    }
    return null;
  } finally {
    seen.delete(object);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A deep, frozen copy made through JSON itself, so what is kept is exactly what will be sent.
 * JSON.parse defines `__proto__` as an own data property, so such keys pollute no prototype.
 */
export function frozenJsonCopy<T extends JsonValue>(value: T): T {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as T);
}

/** Freezes `value` and everything it holds, in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * How deep JSON from outside may nest (a request's body, a remote's `slots-remote.json`): far beyond any document or
 * props schema of the product (a dozen levels), and far below what the recursive code that reads it (serializing,
 * schema walks, validation) can take: 20,000 levels of `{"a": …}` fit in under 1 MiB, and a release's descriptor
 * that deep overflowed the stack where the server stored it, a 500.
 */
export const JSON_DEPTH_MAX = 100;

/** Whether `value` nests deeper than `max` arrays and objects; read without recursion, so any depth is measured. */
export function nestsDeeperThan(value: unknown, max: number = JSON_DEPTH_MAX): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [next, depth] = item;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

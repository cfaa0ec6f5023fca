import {
  SlotLocation,
  isPlainObject,
  type JsonObject,
  type SlotContent,
  type SlotEntry,
  type SlotMap,
} from '../../shared';

/** The usable part of a payload's `slots`, and what was dropped (for one log line). */
export interface ParsedSlotMap {
  slots: SlotMap;
  problems: string[];
}

/**
 * Turns the `slots` object of GET /slots or GET /meta into a SlotMap the renderer can trust: known locations only,
 * entries with a component name and plain-object props, content that is text or slot entries. A malformed entry is
 * dropped (and reported) instead of breaking the page.
 */
export function parseSlotMap(value: unknown): ParsedSlotMap {
  const problems: string[] = [];
  const slots: SlotMap = {};
  if (!isPlainObject(value)) {
    return { slots, problems: ['`slots` is not an object'] };
  }
  for (const [key, rawEntries] of Object.entries(value)) {
    const location = SlotLocation.tryFrom(key);
    if (!location) {
      problems.push(`unknown location "${key}"`);
      continue;
    }
    if (!Array.isArray(rawEntries)) {
      problems.push(`${key}: not a list`);
      continue;
    }
    const entries: SlotEntry[] = [];
    rawEntries.forEach((raw, index) => {
      const entry = parseEntry(raw, `${key}[${index}]`, problems);
      if (entry) entries.push(entry);
    });
    if (entries.length > 0) slots[location.value] = entries;
  }
  return { slots, problems };
}

function parseEntry(raw: unknown, path: string, problems: string[]): SlotEntry | null {
  if (!isPlainObject(raw) || typeof raw.component !== 'string' || raw.component === '') {
    problems.push(`${path}: not a slot entry`);
    return null;
  }
  const props = raw.props === undefined || raw.props === null ? {} : raw.props;
  if (!isPlainObject(props)) {
    problems.push(`${path} (${raw.component}): props is not an object`);
    return null;
  }
  const entry: SlotEntry = { component: raw.component, props: props as JsonObject };
  if (raw.content !== undefined && raw.content !== null) {
    const content = parseContent(raw.content, `${path}.content`, problems);
    if (content === null) return null;
    entry.content = content;
  }
  return entry;
}

function parseContent(raw: unknown, path: string, problems: string[]): SlotContent | null {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) {
    const entries: SlotEntry[] = [];
    for (const [index, item] of raw.entries()) {
      const entry = parseEntry(item, `${path}[${index}]`, problems);
      if (!entry) return null;
      entries.push(entry);
    }
    return entries;
  }
  return parseEntry(raw, path, problems);
}

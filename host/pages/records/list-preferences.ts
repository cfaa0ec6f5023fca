import { RECORD_LIST_LIMIT } from '../../../shared';

/** The page sizes a list offers; the API's default among them. */
export const PAGE_SIZES: readonly number[] = Object.freeze([10, RECORD_LIST_LIMIT.default, 50, RECORD_LIST_LIMIT.max]);

/** How one user likes one resource's list: rows per page, and the list columns left out (never the first). */
export interface ListPreferences {
  pageSize: number;
  hiddenColumns: readonly string[];
}

export const DEFAULT_LIST_PREFERENCES: ListPreferences = Object.freeze({
  pageSize: RECORD_LIST_LIMIT.default,
  hiddenColumns: Object.freeze([]),
});

/** Every preference's key in localStorage starts with it. */
export const LIST_PREFERENCES_KEY_PREFIX = 'slots:list-preferences:';

function keyOf(username: string, resource: string): string {
  return `${LIST_PREFERENCES_KEY_PREFIX}${JSON.stringify([username, resource])}`;
}

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * A user's preferences for a resource's list, kept in this browser's localStorage per user name and resource:
 * a convenience of the screen in front of the user (a phone may want fewer columns than a desktop), worth no schema,
 * API or migration on the server, and lost at no cost but a click. Anything unreadable reads as the defaults.
 */
export function readListPreferences(username: string, resource: string): ListPreferences {
  try {
    const text = store()?.getItem(keyOf(username, resource));
    if (!text) return DEFAULT_LIST_PREFERENCES;
    const parsed = JSON.parse(text) as Partial<Record<keyof ListPreferences, unknown>>;
    const pageSize =
      typeof parsed.pageSize === 'number' && PAGE_SIZES.includes(parsed.pageSize)
        ? parsed.pageSize
        : DEFAULT_LIST_PREFERENCES.pageSize;
    const hiddenColumns = Array.isArray(parsed.hiddenColumns)
      ? parsed.hiddenColumns.filter((column): column is string => typeof column === 'string')
      : [];
    return { pageSize, hiddenColumns };
  } catch {
    return DEFAULT_LIST_PREFERENCES;
  }
}

export function saveListPreferences(username: string, resource: string, preferences: ListPreferences): void {
  try {
    store()?.setItem(keyOf(username, resource), JSON.stringify(preferences));
  } catch {
    // Full or refused storage: the choice holds for this page only.
  }
}

import { tabStorage as storage } from '../core';

/** Every key of unsaved work kept in this tab starts with it (tests look for leftovers by it). */
export const TAB_DRAFT_KEY_PREFIX = 'slots:draft:';

/** Whose unsaved work, and of what: the username first, so that {@link forgetDraftsExcept} can tell them apart. */
export type DraftKey = readonly [username: string, ...place: (string | number)[]];

function keyOf(key: DraftKey): string {
  return `${TAB_DRAFT_KEY_PREFIX}${JSON.stringify(key)}`;
}

/**
 * Unsaved work a page keeps for this tab only (sessionStorage) when the session ends or changes under it (another
 * tab signed out, switched the tenant or signed in as someone else), to offer it back to the same user: a record
 * form's changed fields (record-draft.ts), the placements editor's document. Where storage is unavailable, full or
 * refused, nothing is kept, as if the page had none.
 */
export function keepTabDraft(key: DraftKey, value: unknown): void {
  try {
    storage()?.setItem(keyOf(key), JSON.stringify(value));
  } catch {
    // Full or refused storage: the draft cannot be kept, as without storage at all.
  }
}

/** The kept work (parsed; the caller checks its shape), or undefined when there is none or it is not JSON. */
export function readTabDraft(key: DraftKey): unknown {
  const text = storage()?.getItem(keyOf(key));
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function forgetTabDraft(key: DraftKey): void {
  storage()?.removeItem(keyOf(key));
}

/**
 * Forgets the kept work of every user but `username` (all of it when null): on sign-out, and when someone else
 * signs in on this tab, no one's unsaved text stays behind.
 */
export function forgetDraftsExcept(username: string | null): void {
  const store = storage();
  if (!store) return;
  const keep = username === null ? null : `${TAB_DRAFT_KEY_PREFIX}${JSON.stringify([username]).slice(0, -1)},`;
  for (const key of Object.keys(store)) {
    if (key.startsWith(TAB_DRAFT_KEY_PREFIX) && (keep === null || !key.startsWith(keep))) store.removeItem(key);
  }
}

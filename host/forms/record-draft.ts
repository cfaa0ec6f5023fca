import type { JsonValue } from '../../shared';
import { tabStorage as storage } from '../core';

/** Whose draft of which record: a draft is only ever offered back to the same user, tenant and record. */
export interface DraftOwner {
  username: string;
  tenant: string;
  resource: string;
  id: number;
}

export type DraftValues = Record<string, JsonValue>;

/**
 * What a form keeps of its unsaved work: the fields it changed, each with its new value and the value it was changed
 * from (as last loaded or saved). Only those fields are put back, on top of the record as loaded after signing in
 * again, and their save expects the values they were changed from: a field someone saved meanwhile is a conflict,
 * shown as for any save, and the fields left alone keep whatever was saved to them meanwhile.
 */
export interface RecordDraft {
  changes: DraftValues;
  base: DraftValues;
}

/** Every draft's key in the tab's sessionStorage starts with it (tests look for leftovers by it). */
export const RECORD_DRAFT_KEY_PREFIX = 'slots:record-draft:';

function keyOf(owner: DraftOwner): string {
  return `${RECORD_DRAFT_KEY_PREFIX}${JSON.stringify([owner.username, owner.tenant, owner.resource, owner.id])}`;
}

/**
 * The unsaved values of a record form, kept for this tab only (sessionStorage) while the user signs in again after
 * the session ended mid-edit, and offered back when the same user opens the same record in the same tenant. Where
 * sessionStorage is unavailable, drafts are not kept.
 */
export function keepDraft(owner: DraftOwner, draft: RecordDraft): void {
  try {
    storage()?.setItem(keyOf(owner), JSON.stringify(draft));
  } catch {
    // Full or refused storage: the draft cannot be kept, as without storage at all.
  }
}

/** The kept draft of the record, if any (it stays kept until {@link forgetDraft}); null for anything else stored. */
export function readDraft(owner: DraftOwner): RecordDraft | null {
  const text = storage()?.getItem(keyOf(owner));
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isValues(value) || !isValues(value.changes) || !isValues(value.base)) return null;
    return { changes: value.changes, base: value.base };
  } catch {
    return null;
  }
}

function isValues(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function forgetDraft(owner: DraftOwner): void {
  storage()?.removeItem(keyOf(owner));
}

/**
 * Forgets the kept drafts of every user but `username` (all of them when null): on sign-out, and when someone
 * else signs in on this tab, no one's unsaved text stays behind.
 */
export function forgetDraftsExcept(username: string | null): void {
  const store = storage();
  if (!store) return;
  const keep = username === null ? null : `${RECORD_DRAFT_KEY_PREFIX}${JSON.stringify([username]).slice(0, -1)},`;
  for (const key of Object.keys(store)) {
    if (key.startsWith(RECORD_DRAFT_KEY_PREFIX) && (keep === null || !key.startsWith(keep))) store.removeItem(key);
  }
}

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
export function keepDraft(owner: DraftOwner, values: DraftValues): void {
  try {
    storage()?.setItem(keyOf(owner), JSON.stringify(values));
  } catch {
    // Full or refused storage: the draft cannot be kept, as without storage at all.
  }
}

/** The kept draft of the record, if any (it stays kept until {@link forgetDraft}). */
export function readDraft(owner: DraftOwner): DraftValues | null {
  const text = storage()?.getItem(keyOf(owner));
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as DraftValues) : null;
  } catch {
    return null;
  }
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

import type { JsonValue } from '../../shared';
import { forgetTabDraft, keepTabDraft, readTabDraft, type DraftKey } from '../hooks/tab-drafts';
import type { CreationKey } from './creation-key';

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
  /** A new record's create sent last, whose answer may have been lost: sent again with these values, it is the same. */
  creation?: CreationKey;
}

function keyOf(owner: DraftOwner): DraftKey {
  return [owner.username, 'record', owner.tenant, owner.resource, owner.id];
}

/**
 * The unsaved values of a record form, kept for this tab only (sessionStorage) while the user signs in again after
 * the session ended mid-edit, and offered back when the same user opens the same record in the same tenant. Where
 * sessionStorage is unavailable, drafts are not kept (tab-drafts.ts).
 */
export function keepDraft(owner: DraftOwner, draft: RecordDraft): void {
  keepTabDraft(keyOf(owner), draft);
}

/** The kept draft of the record, if any (it stays kept until {@link forgetDraft}); null for anything else stored. */
export function readDraft(owner: DraftOwner): RecordDraft | null {
  const value = readTabDraft(keyOf(owner));
  if (!isValues(value) || !isValues(value.changes) || !isValues(value.base)) return null;
  const creation = value.creation;
  return {
    changes: value.changes,
    base: value.base,
    ...(isCreationKey(creation) ? { creation: { sent: creation.sent, key: creation.key } } : {}),
  };
}

function isCreationKey(value: unknown): value is CreationKey {
  return isValues(value) && typeof value.sent === 'string' && typeof value.key === 'string';
}

function isValues(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function forgetDraft(owner: DraftOwner): void {
  forgetTabDraft(keyOf(owner));
}

import { useEffect, useRef } from 'react';
import { isPlainObject, type JsonValue, type PlacementsDocument } from '../../../shared';
import { useSession } from '../../core';
import { forgetTabDraft, keepTabDraft, readTabDraft, type DraftKey } from '../../hooks/tab-drafts';
import { asDocument } from './placements-draft';

/**
 * The placements editor's edits not yet saved into the server's draft, and the saved draft's `updatedAt` they were
 * made from: saving them expects it, so a draft saved elsewhere meanwhile is a conflict (409, reload offered), never
 * overwritten without a word.
 */
export interface KeptEdits {
  document: PlacementsDocument;
  basedOn: string | null;
}

/** Said when the editor shows again the edits kept when the session ended or changed under it. */
export function keptEditsMessage(draftUnchanged: boolean): string {
  return draftUnchanged
    ? 'Your unsaved changes from before the session changed are shown again: save them to keep them.'
    : 'Your unsaved changes from before the session changed are shown again, but the draft was saved elsewhere ' +
        'since: saving them will be refused, with a way to reload the saved draft.';
}

/** One per user: the placements are the same in every tenant, so are the edits kept of them. */
const keyOf = (username: string): DraftKey => [username, 'placements'];

/** The edits kept for `username`, forgotten as they are taken (kept again if the session ends again), or null. */
export function takeKeptEdits(username: string): KeptEdits | null {
  const value = readTabDraft(keyOf(username));
  forgetTabDraft(keyOf(username));
  if (!isPlainObject(value) || !isPlainObject(value.document)) return null;
  const basedOn = typeof value.basedOn === 'string' ? value.basedOn : null;
  return { document: asDocument(value.document as JsonValue), basedOn };
}

/**
 * Keeps the editor's unsaved edits in this tab (tab-drafts.ts) when the session ends or changes under the page:
 * signed out or switched to another tenant in another tab, expired while editing. The editor, mounted again for the
 * same user, shows them again (takeKeptEdits); someone else signing in forgets them. `unsaved` answers at that
 * moment: the edits, or null when everything is saved.
 */
export function useKeepEditsWhenSessionChanges(unsaved: () => KeptEdits | null): void {
  const { onExpire, user } = useSession();
  const latest = useRef({ unsaved, username: user?.username });
  latest.current = { unsaved, username: user?.username };
  useEffect(
    () =>
      onExpire(() => {
        const { unsaved: read, username } = latest.current;
        const edits = read();
        if (edits && username) keepTabDraft(keyOf(username), edits);
      }),
    [onExpire],
  );
}

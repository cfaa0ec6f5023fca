import { useEffect, useRef, useState, type RefObject } from 'react';
import { useSession } from '../../core';
import { forgetTabDraft, keepTabDraft, readTabDraft, type DraftKey } from '../../hooks/tab-drafts';

/** A release form's typed values, as its text boxes hold them. */
export type TypedValues = Readonly<Record<string, string>>;

/** What the form holds now, set by it at each render (after its state, which starts from what was kept). */
export interface FormNow {
  typed: TypedValues;
  unsaved: boolean;
}

/**
 * What a release form (a canary, a rollout plan) had typed and not given when the session ended: kept for this tab
 * (tab-drafts.ts) while its user signs in again, as a record form's draft is, and given back, once, to the same form of
 * the same remote for the same user and tenant. Returns what was kept (null for nothing), read at the first render.
 */
export function useKeptOverSignIn(
  form: 'canary' | 'rollout',
  remote: string,
  now: RefObject<FormNow>,
): TypedValues | null {
  const { user, onExpire } = useSession();
  const key: DraftKey | null = user ? [user.username, 'releases', user.currentTenant, remote, form] : null;
  const [kept] = useState(() => (key ? typedValuesOf(readTabDraft(key)) : null));
  const latest = useRef(key);
  latest.current = key;
  const keyText = key?.join('\u0000');

  // Given back once: a later visit starts from the form's own values.
  useEffect(() => {
    if (kept && latest.current) forgetTabDraft(latest.current);
  }, [kept]);

  useEffect(
    () =>
      onExpire(() => {
        const owner = latest.current;
        if (now.current?.unsaved && owner) keepTabDraft(owner, now.current.typed);
      }),
    [onExpire, keyText, now],
  );
  return kept;
}

function typedValuesOf(value: unknown): TypedValues | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.every(([, each]) => typeof each === 'string') ? (Object.fromEntries(entries) as TypedValues) : null;
}

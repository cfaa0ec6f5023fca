import { useCallback, useRef } from 'react';

/**
 * The Idempotency-Key of a form's create (RECORD_CREATION_KEY_HEADER). A create whose answer is lost (the connection
 * dropped as the server answered) looks failed; pressed again with the same key and values it answers the record the
 * first press made instead of making a second. The key is kept while the values sent stay the same; other values
 * are another record to create, with a new key (the server refuses a key sent again with other values).
 */
export function useCreationKey(kept: CreationKey | null = null): {
  keyFor: (body: unknown) => string;
  /** The key last sent and what it was sent with; null before any create was sent. */
  lastSent: () => CreationKey | null;
} {
  const last = useRef<CreationKey | null>(kept);
  const keyFor = useCallback((body: unknown) => {
    const sent = JSON.stringify(body);
    if (last.current?.sent !== sent) last.current = { sent, key: newCreationKey() };
    return last.current.key;
  }, []);
  const lastSent = useCallback(() => last.current, []);
  return { keyFor, lastSent };
}

/**
 * A create's key and the body it was sent with (JSON): kept with a draft when the session ends after a create whose
 * answer was lost, so the create pressed again after signing in is that same create, not a second record (the
 * server keys creations per user, not per session).
 */
export interface CreationKey {
  sent: string;
  key: string;
}

/**
 * 128 random bits, in hex. Not crypto.randomUUID: a page served over plain HTTP from another address than localhost is
 * no secure context, where only getRandomValues is there.
 */
function newCreationKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A create whose answer did not arrive: it may have been made, and pressing again is safe (same key, same values). */
export const CREATE_UNANSWERED_MESSAGE =
  'The server did not answer: the record may or may not be created. Check the connection, then press Create again: ' +
  'it is created once, however many times it is pressed.';

import { useEffect, useRef, useState, type RefObject } from 'react';

/** The attribute of a placements editor entry (its list item) that holds its key: how an entry just added is found. */
const ENTRY_KEY_ATTRIBUTE = 'data-entry-key';

export interface AddedEntry {
  /** What the editor's live region says: the last entry added. */
  announcement: string;
  /**
   * Called as an Add button adds an entry, with how to announce it: once the list shows the new entry (a key that was
   * not there), its first control gets the focus, so the operator goes on with it rather than looking for it.
   */
  adding(announcement: string): void;
  /**
   * Called as a Remove button removes an entry: the focus goes to `landing` (the list's heading) and the removal is
   * announced. Left where it was, the focus would sit on the next entry's Remove button (it takes the removed one's
   * place), and a second Enter would remove that entry too.
   */
  removed(announcement: string, landing: HTMLElement | null): void;
  /**
   * Says where an edit of an entry places it when its card stays where it is (a `before` or `after` chosen: the
   * cards are listed by priority), as a move is said: in the same live region, the focus left where it is.
   */
  placed(announcement: string): void;
}

/**
 * What to say of the entry of `key` that the focus is in, moved to `place` (from 1) by an edit of its own (a priority
 * typed): the list is kept in order as the operator types, so the card goes elsewhere, its number with it.
 */
export type MovedAnnouncement = (key: string, place: number) => string;

/**
 * Confirms an Add or a Remove in the placements editor: an entry appears somewhere in a list ordered by priority, and the Add
 * button is disabled until the next choice, so without it nothing says that it worked and the focus is left behind.
 * `keys` are the entries' keys, as their elements inside `container` carry them (ENTRY_KEY_ATTRIBUTE); the
 * announcement is cleared once `staleWhen` changes. With `moved`, the entry holding the focus that an edit moves to
 * another place is said too: the focus stays in it, but nothing else says that it is now elsewhere in the list.
 */
export function useAddedEntry(
  container: RefObject<HTMLElement | null>,
  keys: readonly string[],
  staleWhen: unknown = null,
  moved?: MovedAnnouncement,
): AddedEntry {
  // Said until `staleWhen` changes (the page's outcome: a save, a publish): "… in the draft" is then no longer news,
  // and left in the live region it read as the state after the publish.
  const [announced, setAnnounced] = useState<{ text: string; at: unknown }>({ text: '', at: staleWhen });
  // Dropped for good once stale, not only hidden: an outcome that goes back to the one it was said under (a refusal
  // for a box, cleared once the box is mended) would put it back in the live region, read out again as news.
  if (announced.at !== staleWhen && announced.text !== '') setAnnounced({ text: '', at: staleWhen });
  const latestStaleWhen = useRef(staleWhen);
  latestStaleWhen.current = staleWhen;
  const setAnnouncement = (text: string) => setAnnounced({ text, at: latestStaleWhen.current });
  const pending = useRef<{ before: ReadonlySet<string>; announcement: string } | null>(null);
  const latestKeys = useRef(keys);
  latestKeys.current = keys;
  const shown = keys.join('\n');
  const latestMoved = useRef(moved);
  latestMoved.current = moved;
  /** The keys in the order the last render showed them: what a move is told from. */
  const shownBefore = useRef(keys);

  useEffect(() => {
    const before = shownBefore.current;
    const now = latestKeys.current;
    shownBefore.current = now;
    const say = latestMoved.current;
    // The same entries in another order (not an Add or a Remove): the one the focus is in, if it moved.
    if (say === undefined || pending.current !== null || before.length !== now.length) return;
    const focused = window.document.activeElement?.closest(`[${ENTRY_KEY_ATTRIBUTE}]`);
    const key = focused && container.current?.contains(focused) ? focused.getAttribute(ENTRY_KEY_ATTRIBUTE) : null;
    if (key === null || !before.includes(key) || before.indexOf(key) === now.indexOf(key)) return;
    setAnnouncement(say(key, now.indexOf(key) + 1));
  }, [shown, container]);

  useEffect(() => {
    const expected = pending.current;
    const added = expected && latestKeys.current.find((key) => !expected.before.has(key));
    if (!expected || added === undefined) return;
    pending.current = null;
    const entry = [...(container.current?.querySelectorAll<HTMLElement>(`[${ENTRY_KEY_ATTRIBUTE}]`) ?? [])].find(
      (element) => element.getAttribute(ENTRY_KEY_ATTRIBUTE) === added,
    );
    entry?.querySelector<HTMLElement>('input, select, textarea, button, summary')?.focus();
    setAnnouncement(expected.announcement);
  }, [shown, container]);

  return {
    announcement: announced.at === staleWhen ? announced.text : '',
    adding: (text) => {
      pending.current = { before: new Set(latestKeys.current), announcement: text };
    },
    removed: (text, landing) => {
      pending.current = null;
      landing?.focus();
      setAnnouncement(text);
    },
    placed: setAnnouncement,
  };
}

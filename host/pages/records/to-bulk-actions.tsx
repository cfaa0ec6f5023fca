import { useState } from 'react';
import type { RecordNouns } from './describe-record-page';

export interface ToBulkActionsProps {
  /**
   * How many rows are selected, and what they are called: "the selected author", "the selected authors". Not the
   * count: the bar says it ("2 selected"), and one text twice on the page is two matches for anyone finding it.
   */
  count: number;
  nouns: RecordNouns;
  /** Moves the focus into the bulk actions bar. */
  onGo(): void;
}

/**
 * The way from a box just ticked to the bulk actions, for the keyboard. The bar is above the table (and pinned at the
 * top of the window while rows are selected), so it comes before the rows in the Tab order, as it does on the screen:
 * Tab from a row's box went on down the rows, two stops a row, and reached the pager below, never the bar. Moving the
 * bar after the table in the page's order alone would make the focus jump up the screen, and still after every row
 * below. So the box last ticked is followed by this one stop, hidden until it has the focus, as a skip link is:
 * Tab, Enter, and the focus is on the bar's first control. The rows not ticked last keep their two stops.
 * Out of sight, it is `visually-hidden`; with the focus, a small button as the row's others (records.css places it).
 */
export function ToBulkActions({ count, nouns, onGo }: ToBulkActionsProps) {
  const [focused, setFocused] = useState(false);
  return (
    <button
      type="button"
      className={`to-bulk-actions ${focused ? 'button button--small' : 'visually-hidden'}`}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={onGo}
    >
      Go to the actions for the selected {count === 1 ? nouns.one : nouns.many}
    </button>
  );
}

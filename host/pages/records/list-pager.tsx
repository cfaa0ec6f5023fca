import { useLayoutEffect, useRef } from 'react';

export interface ListPagerProps {
  /** What the pages hold, for the navigation's name ("Pages of authors"). */
  label: string;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
  /**
   * A page past which nothing is left and that has no neighbour to go back to (its records deleted since, by this
   * person or another): the way back to the list's first page.
   */
  onFirst?: (() => void) | undefined;
  /** Which of the list's two pagers: above the rows (a keyboard reaches it without crossing them) or below. */
  position: 'above' | 'below';
  /** The page of records shown (any value that changes when another page arrives). */
  shown: unknown;
}

/** How far a focus ring reaches past its control (shell.css: 2 px wide, 2 px out). */
const RING_PX = 4;

/**
 * Previous and next page. A button with no page to go to stays in place, marked aria-disabled rather than removed
 * or disabled, so the keyboard focus on it is not dropped when the last page arrives. The pager below the rows moves
 * with them: a longer page pushes the button just pressed off the screen, its focus ring with it, so the button that
 * has the focus is brought back into view when the new page is shown.
 */
export function ListPager({ label, onPrevious, onNext, onFirst, position, shown }: ListPagerProps) {
  const name = `Pages of ${label.toLowerCase()}${position === 'above' ? '' : ', after the list'}`;
  const pager = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const focused = document.activeElement;
    // Only when the focus is here: someone reading the rows is not scrolled away from them.
    if (!(focused instanceof HTMLElement) || !pager.current?.contains(focused)) return;
    const { top, bottom } = focused.getBoundingClientRect();
    // Its ring (2 px, 2 px out) counts: a button whose edge just shows would still hide its ring. Centred, the rows
    // above it show too.
    if (top < RING_PX || bottom > window.innerHeight - RING_PX) focused.scrollIntoView({ block: 'center' });
  }, [shown]);
  if (onFirst && !onPrevious && !onNext) {
    return (
      <nav ref={pager} className={`list-pager list-pager--${position}`} aria-label={name}>
        <button type="button" className="button button--secondary" onClick={onFirst}>
          <span aria-hidden="true">←</span> First page
        </button>
      </nav>
    );
  }
  if (!onPrevious && !onNext) return null;
  return (
    <nav ref={pager} className={`list-pager list-pager--${position}`} aria-label={name}>
      <button
        type="button"
        className="button button--secondary"
        aria-disabled={onPrevious ? undefined : true}
        onClick={onPrevious}
      >
        <span aria-hidden="true">←</span> Previous page
      </button>
      <button
        type="button"
        className="button button--secondary"
        aria-disabled={onNext ? undefined : true}
        onClick={onNext}
      >
        Next page <span aria-hidden="true">→</span>
      </button>
    </nav>
  );
}

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
}

/**
 * Previous and next page. A button with no page to go to stays in place, marked aria-disabled rather than removed
 * or disabled, so the keyboard focus on it is not dropped when the last page arrives.
 */
export function ListPager({ label, onPrevious, onNext, onFirst, position }: ListPagerProps) {
  const name = `Pages of ${label.toLowerCase()}${position === 'above' ? '' : ', after the list'}`;
  if (onFirst && !onPrevious && !onNext) {
    return (
      <nav className={`list-pager list-pager--${position}`} aria-label={name}>
        <button type="button" className="button button--secondary" onClick={onFirst}>
          <span aria-hidden="true">←</span> First page
        </button>
      </nav>
    );
  }
  if (!onPrevious && !onNext) return null;
  return (
    <nav className={`list-pager list-pager--${position}`} aria-label={name}>
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

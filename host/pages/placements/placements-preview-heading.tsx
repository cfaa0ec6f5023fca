import { useLayoutEffect, useRef, type RefObject } from 'react';

/** The preview's heading: what a location's link to the preview focuses (placements-location.tsx). */
export const PREVIEW_HEADING_ID = 'placements-preview-heading';

/**
 * Whether the preview's heading had the focus when it was taken away: owned by the page, shared by the heading the
 * preview shows while its chunk loads and the one it shows once loaded.
 */
export type PreviewHeadingFocus = RefObject<boolean>;

/**
 * The preview's heading, while its chunk loads and once loaded. A link to the preview pressed while the chunk loads
 * focuses the loading heading; the loaded preview then replaces it, which would drop the focus on the page's body (and
 * a screen reader's reading back at the top). So the heading hands the focus over: the one that leaves says whether it
 * had it, the one that comes takes it if nothing else has taken it meanwhile.
 */
export function PreviewHeading({ focus }: { focus: PreviewHeadingFocus }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A layout effect: its clean-up runs while the leaving heading is still in the document (so still the active
  // element), and the coming one's runs in the same commit, before the browser paints or the reader moves.
  useLayoutEffect(() => {
    const element = heading.current;
    if (focus.current && (document.activeElement === null || document.activeElement === document.body)) {
      element?.focus();
    }
    focus.current = false;
    return () => {
      focus.current = element !== null && document.activeElement === element;
    };
  }, [focus]);
  return (
    <h2 id={PREVIEW_HEADING_ID} tabIndex={-1} ref={heading}>
      Preview
    </h2>
  );
}

/** What the preview's place shows while its chunk loads: its heading (a link to the preview lands there) and why. */
export function PreviewLoading({ focus }: { focus: PreviewHeadingFocus }) {
  return (
    <section className="inspector__section placements__live-preview" aria-labelledby={PREVIEW_HEADING_ID}>
      <PreviewHeading focus={focus} />
      <p role="status">Loading the preview…</p>
    </section>
  );
}

import { createContext, useContext, useLayoutEffect, useState, type ReactNode } from 'react';
import { useSlotData } from '../core';

/**
 * Whether the layout leaves its locations above the page (header-banner, global-before-content) to the page, which
 * renders them below what it has drawn: set by a page whose slots arrive after it was first drawn
 * ({@link usePlaceLateSlotsBelow}), false on every other page.
 */
interface LateSlotsBelow {
  readonly below: boolean;
  setBelow(below: boolean): void;
}

const LateSlotsBelowContext = createContext<LateSlotsBelow>({ below: false, setBelow: () => undefined });

/** Held by the layout: its locations above the page render in place unless the page has taken them. */
export function LateSlotsBelowProvider({ children }: { children: ReactNode }) {
  const [below, setBelow] = useState(false);
  return <LateSlotsBelowContext.Provider value={{ below, setBelow }}>{children}</LateSlotsBelowContext.Provider>;
}

/** Whether the layout's locations above the page are the page's to render (below its content). */
export function useLayoutSlotsTakenBelow(): boolean {
  return useContext(LateSlotsBelowContext).below;
}

/**
 * For a page that must not move once drawn (the sign-in form: staff may be typing): whether its slot data was still
 * on its way when it was first drawn. Then every slot that would have gone above it, the layout's included, is the
 * page's to render below it, for as long as the page is shown: content put above what is on screen pushes it away
 * (what the layout-shift measure counts), and the space to reserve is unknown until the slots have rendered. Decided
 * once, at the page's first render, so nothing moves back either.
 */
export function usePlaceLateSlotsBelow(): boolean {
  const { status } = useSlotData();
  const [late] = useState(() => status === 'loading');
  const { setBelow } = useContext(LateSlotsBelowContext);
  // Before the page paints, and undone when it goes: the next page gets the layout's locations back in place.
  useLayoutEffect(() => {
    if (!late) return undefined;
    setBelow(true);
    return () => setBelow(false);
  }, [late, setBelow]);
  return late;
}

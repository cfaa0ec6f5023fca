import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

interface RouteFocus {
  /** Called by a page heading as it mounts: focuses it when it is the heading of the page just navigated to. */
  claim(heading: HTMLElement): void;
}

const RouteFocusContext = createContext<RouteFocus>({ claim: () => undefined });

/**
 * After a client-side route change the link that was followed is gone and focus falls to the body, so keyboard
 * and screen reader users are left at the top of nothing. This moves focus to the new page's heading once it shows
 * (possibly after the page's data loaded). A change of the query string or hash alone (searching, paging, an
 * in-page link) is not a new page and moves nothing. The first page of a visit keeps its own focus (the sign-in
 * form's first field), and so does the page a redirect leads to before any page showed its heading.
 *
 * The same rescue applies when the focused control itself disappears without a route change (a dismissed banner,
 * "Try again" replaced by the reloading page): focus goes to the page's heading, or to the next one that shows,
 * instead of falling to the body, from where the next Tab starts at the top of the document.
 */
export function RouteFocusProvider({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const state = useRef({ pathname, pendingPath: null as string | null, headingShown: false });
  // Noted while rendering, because the new page's heading mounts (and claims) before an effect here would run.
  // Idempotent: a second render of the same location changes nothing.
  if (state.current.pathname !== pathname) {
    state.current.pathname = pathname;
    state.current.pendingPath = state.current.headingShown ? pathname : null;
  }

  const claim = useCallback((heading: HTMLElement) => {
    const current = state.current;
    current.headingShown = true;
    if (current.pendingPath === null || current.pendingPath !== current.pathname) return;
    current.pendingPath = null;
    heading.focus({ preventScroll: false });
  }, []);

  useEffect(() => {
    const onFocusOut = (event: FocusEvent) => {
      // Focus that moved to another element, or left the window, is where the user put it.
      if (event.relatedTarget !== null || !(event.target instanceof Node)) return;
      const lost = event.target;
      // Chromium dispatches this before removing the element: look once the removal is done.
      setTimeout(() => {
        if (lost.isConnected || (document.activeElement !== null && document.activeElement !== document.body)) return;
        const heading = document.querySelector<HTMLElement>('#main h1[tabindex="-1"]');
        if (heading) heading.focus();
        else state.current.pendingPath = state.current.pathname;
      }, 0);
    };
    document.addEventListener('focusout', onFocusOut);
    return () => document.removeEventListener('focusout', onFocusOut);
  }, []);

  const value = useMemo(() => ({ claim }), [claim]);
  return <RouteFocusContext.Provider value={value}>{children}</RouteFocusContext.Provider>;
}

export function useRouteFocus(): RouteFocus {
  return useContext(RouteFocusContext);
}

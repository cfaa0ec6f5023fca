import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/** Paths the server answers itself: links to them are real page loads. */
const SERVER_PATHS = /^\/(api|remotes|slots|meta|me|tenant|healthz|readyz)(\/|$)/;

/**
 * Plain `<a href="/...">` links (in remote components, which know nothing of the host's router) navigate inside
 * the app instead of reloading it. Modified clicks, other origins, `target`, `download` keep the browser default.
 */
export function useSpaLinks(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(target instanceof HTMLAnchorElement)) return;
      if ((target.target && target.target !== '_self') || target.hasAttribute('download')) return;
      const url = new URL(target.href, window.location.href);
      if (url.origin !== window.location.origin || SERVER_PATHS.test(url.pathname)) return;
      // In-page anchors (the skip link) keep their default scrolling and focus.
      if (url.hash && url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      navigate(`${url.pathname}${url.search}${url.hash}`);
    },
    [navigate],
  );
}

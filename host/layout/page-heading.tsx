import { useEffect, useRef, type ReactNode } from 'react';
import { useRouteFocus } from './route-focus';

/** The application's name: the last part of every document title. */
export const APP_NAME = 'Slots Admin';

/** `document.title` of a page: what the page is, then the application (the browser's tab and history show it). */
export function documentTitle(title: string): string {
  return `${title} · ${APP_NAME}`;
}

export interface PageHeadingProps {
  /** What the page is, for the document title; also the heading's text unless `children` is given. */
  title: string;
  children?: ReactNode;
  className?: string;
}

/**
 * A page's one `<h1>`: it names the page in `document.title` (read out by screen readers when the page changes)
 * and receives focus after a route change (see RouteFocusProvider), which `tabIndex={-1}` allows without adding
 * it to the Tab order.
 */
export function PageHeading({ title, children, className = 'page__title' }: PageHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { claim } = useRouteFocus();

  useEffect(() => {
    const named = documentTitle(title);
    document.title = named;
    // Gone with its page: the next page may show its heading only once its data came (a list after sign-in took two
    // seconds), and until then the tab, and a screen reader asked for the title, still said "Sign in" at the list's
    // address. The application's name alone says nothing wrong meanwhile. A page mounted in the same commit sets
    // its own after this (React runs every effect's cleanup before the new ones), and one already named is kept.
    return () => {
      if (document.title === named) document.title = APP_NAME;
    };
  }, [title]);

  useEffect(() => {
    if (ref.current) claim(ref.current);
  }, [claim]);

  return (
    <h1 ref={ref} className={className} tabIndex={-1}>
      {children ?? title}
    </h1>
  );
}

import { lazy, Suspense, type MouseEvent } from 'react';
import { Outlet } from 'react-router-dom';
import { SlotLocation } from '../../shared';
import { AppSlotRenderer, useSession, useSlotRuntime } from '../core';
import { Header } from './header';
import { LateSlotsBelowProvider, useLayoutSlotsTakenBelow } from './late-slots-below';
import { Navigation } from './navigation';
import { RouteFocusProvider } from './route-focus';
import { SessionChangedNotice } from './session-changed-notice';
import { SessionExpiryWarning } from './session-expiry-warning';
import { UnavailableToolsNotice } from './unavailable-tools-notice';
import { UnsavedChangesPrompt } from './unsaved-changes-prompt';
import { useSpaLinks } from './use-spa-links';

// Its own chunk: a page runs a previewed release for an operator who asked for it, and for no one else.
const PreviewNotice = lazy(() =>
  import(/* webpackChunkName: "tool-page-preview-notice" */ './preview-notice').then((module) => ({
    default: module.PreviewNotice,
  })),
);

/** The skip link's click: the focus goes to the page's content, the address stays as it is. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>): void {
  const main = document.getElementById('main');
  if (!main) return;
  event.preventDefault();
  main.focus();
}

/**
 * Every page: the header, the navigation (signed in only), and the global slots before the content and in the
 * footer after it — on the sign-in page too. Focus goes to the new page's heading after a route change, and a
 * navigation that would lose unsaved changes asks first. Signed in, a warning comes before the session's idle limit
 * ends it, a notice says when another tab changed the session, and one that the page runs releases it previews.
 * A page that must not move once drawn takes the locations above it when its slots come late (late-slots-below.tsx).
 */
export function Layout() {
  return (
    <LateSlotsBelowProvider>
      <LayoutFrame />
    </LateSlotsBelowProvider>
  );
}

function LayoutFrame() {
  const session = useSession();
  const onClick = useSpaLinks();
  const signedIn = session.status === 'authenticated';
  const { previewedReleases } = useSlotRuntime();
  // Taken by the sign-in page when its slots came after its form was drawn: it renders them below the form.
  const takenBelow = useLayoutSlotsTakenBelow();
  return (
    <RouteFocusProvider>
      <UnsavedChangesPrompt />
      <div className={signedIn ? 'app app--signed-in' : 'app'} onClick={onClick}>
        {/* Moves the focus without a #main in the address: Back would only undo the skip, not leave the page. */}
        <a className="skip-link" href="#main" onClick={skipToContent}>
          Skip to content
        </a>
        <Header />
        {signedIn && <SessionExpiryWarning />}
        <div className="app__body">
          {signedIn && <Navigation />}
          <div className="app__page">
            <main className="app__main" id="main" tabIndex={-1}>
              <SessionChangedNotice />
              {signedIn && previewedReleases.length > 0 && (
                <Suspense fallback={null}>
                  <PreviewNotice />
                </Suspense>
              )}
              <UnavailableToolsNotice />
              {!takenBelow && <AppSlotRenderer location={SlotLocation.GLOBAL_BEFORE_CONTENT} />}
              <div className="app__content">
                <Outlet />
              </div>
            </main>
            {/* The page's contentinfo landmark: the footer's links are not the page's content. */}
            <footer className="app__footer">
              <AppSlotRenderer location={SlotLocation.GLOBAL_AFTER_CONTENT} />
            </footer>
          </div>
        </div>
      </div>
    </RouteFocusProvider>
  );
}

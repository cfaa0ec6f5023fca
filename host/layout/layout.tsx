import { Outlet } from 'react-router-dom';
import { SlotLocation } from '../../shared';
import { AppSlotRenderer, useSession } from '../core';
import { Header } from './header';
import { Navigation } from './navigation';
import { RouteFocusProvider } from './route-focus';
import { SessionExpiryWarning } from './session-expiry-warning';
import { UnavailableToolsNotice } from './unavailable-tools-notice';
import { UnsavedChangesPrompt } from './unsaved-changes-prompt';
import { useSpaLinks } from './use-spa-links';

/**
 * Every page: the header, the navigation (signed in only), and the global slots before and after the content —
 * on the sign-in page too. Focus goes to the new page's heading after a route change, and a navigation that would
 * lose unsaved changes asks first. Signed in, a warning comes before the session's idle limit ends it.
 */
export function Layout() {
  const session = useSession();
  const onClick = useSpaLinks();
  const signedIn = session.status === 'authenticated';
  return (
    <RouteFocusProvider>
      <UnsavedChangesPrompt />
      <div className={signedIn ? 'app app--signed-in' : 'app'} onClick={onClick}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        {signedIn && <SessionExpiryWarning />}
        <div className="app__body">
          {signedIn && <Navigation />}
          <main className="app__main" id="main" tabIndex={-1}>
            <UnavailableToolsNotice />
            <AppSlotRenderer location={SlotLocation.GLOBAL_BEFORE_CONTENT} />
            <div className="app__content">
              <Outlet />
            </div>
            <AppSlotRenderer location={SlotLocation.GLOBAL_AFTER_CONTENT} />
          </main>
        </div>
      </div>
    </RouteFocusProvider>
  );
}

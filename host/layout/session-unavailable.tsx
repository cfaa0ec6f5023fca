import { Link } from 'react-router-dom';
import { SERVICE_STATUS_PATH } from '../../shared';
import { useSession } from '../core';
import { PageHeading } from './page-heading';
import { useSessionRetry } from './use-session-retry';

/** What the outage says, in one place for the page and its tests. */
export const SESSION_UNAVAILABLE_MESSAGES = {
  /** GET /me failed with status 0: the request never reached the server (or no answer came back). */
  unreachableTitle: 'The server could not be reached',
  /** GET /me answered with an error other than 401: the server, its session store or its database is down. */
  unavailableTitle: 'The service is temporarily unavailable',
  /** Why the sign-in form is not shown: the session may well live on, and signing in would only fail too. */
  explanation:
    'Who is signed in cannot be checked until the server answers; this does not sign you out. This page tries ' +
    'again by itself, and at once when the connection comes back.',
  retry: 'Try again',
  retrying: 'Trying again…',
  serviceStatus: 'See the service status',
} as const;

/**
 * Shown in place of a signed-in page, or of the sign-in form, while the session is `unavailable` (GET /me failed
 * other than with a 401): what failed, that nobody was signed out, and a way to try again; it also tries by itself
 * (useSessionRetry). Once GET /me answers, the page goes on as the session is: signed in, or the sign-in form.
 */
export function SessionUnavailable({ className = 'page-error' }: { className?: string }) {
  const session = useSession();
  useSessionRetry(session);
  const { outage } = session;
  if (!outage) return null;
  const unreachable = outage.error.status === 0 && outage.error.code === 'network';
  const retry = () => {
    // The button stays enabled (disabling it would drop the keyboard focus), so a press while asking is ignored.
    if (!outage.checking) void session.refresh();
  };
  // The alert holds what happened only: the button's "Trying again…" at every retry (by itself, every few seconds
  // up to a minute) would make screen readers read the whole alert again each time, interrupting whatever the person
  // is doing. A new failure (unreachable, then unavailable) changes the words, and is said again.
  return (
    <div className={className} data-session-status="unavailable">
      <div role="alert">
        <PageHeading
          title={
            unreachable ? SESSION_UNAVAILABLE_MESSAGES.unreachableTitle : SESSION_UNAVAILABLE_MESSAGES.unavailableTitle
          }
        />
        <p>{outage.error.message}</p>
        <p className="muted">{SESSION_UNAVAILABLE_MESSAGES.explanation}</p>
      </div>
      <p className="inline">
        <button type="button" className="button button--secondary" onClick={retry} aria-disabled={outage.checking}>
          {outage.checking ? SESSION_UNAVAILABLE_MESSAGES.retrying : SESSION_UNAVAILABLE_MESSAGES.retry}
        </button>
        <Link to={SERVICE_STATUS_PATH}>{SESSION_UNAVAILABLE_MESSAGES.serviceStatus}</Link>
      </p>
    </div>
  );
}

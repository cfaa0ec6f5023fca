import { useEffect, useState } from 'react';
import { Link, useLocation, useRouteError } from 'react-router-dom';
import { PageHeading } from '../../layout/page-heading';

/** Within this time after a reload for a missing file, the same address does not reload again: the file stays missing. */
export const MISSING_FILE_RELOAD_GUARD_MS = 60_000;
/** Where the last reload for a missing file is remembered (session storage): its address and time. */
export const MISSING_FILE_RELOAD_KEY = 'slots-admin:reloaded-for-missing-file';

/**
 * A file of the page that could not be fetched: webpack's ChunkLoadError (a lazily loaded page, such as a tool page,
 * or its CSS) or a dynamic import the browser could not fetch. After a new version of the admin is deployed, a tab
 * opened before asks for files of the old build, which may be gone; reloading takes the new build.
 */
export function isMissingFileError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Loading (CSS )?chunk .+ failed/.test(error.message) ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module/i.test(error.message)
  );
}

/**
 * Records a reload for a missing file at `address` and says whether to make it: not when one was made for the same
 * address within the guard time (a file missing from the new build too must not reload forever), nor without
 * session storage to remember it in.
 */
function claimReload(address: string, now: number): boolean {
  try {
    const last = JSON.parse(sessionStorage.getItem(MISSING_FILE_RELOAD_KEY) ?? 'null') as {
      address?: string;
      at?: number;
    } | null;
    if (last?.address === address && typeof last.at === 'number' && now - last.at < MISSING_FILE_RELOAD_GUARD_MS) {
      return false;
    }
    sessionStorage.setItem(MISSING_FILE_RELOAD_KEY, JSON.stringify({ address, at: now }));
    return true;
  } catch {
    return false;
  }
}

export interface PageErrorPageProps {
  /** Reloads the document (the test's stand-in for `location.reload()`). */
  reload?: () => void;
  now?: () => number;
}

function reloadDocument(): void {
  window.location.reload();
}

/**
 * What a page shows, inside the admin's layout, when it fails to load or to render (a route's error element): the
 * header, the navigation and the session stay, so one broken page never takes the admin down. A missing file of the
 * page reloads it once, which takes the newest build; any other error says so, with a way to try again.
 */
export function PageErrorPage({ reload = reloadDocument, now = Date.now }: PageErrorPageProps) {
  const error = useRouteError();
  const location = useLocation();
  const missingFile = isMissingFileError(error);
  const [reloading, setReloading] = useState(missingFile);

  useEffect(() => {
    if (!missingFile) return;
    if (claimReload(`${location.pathname}${location.search}`, now())) reload();
    else setReloading(false);
  }, [missingFile, location.pathname, location.search, now, reload]);

  if (reloading) {
    return (
      <p className="page-status" role="status">
        Loading the newest version of the admin…
      </p>
    );
  }
  return (
    <div className="page">
      <PageHeading title="This page could not be shown" />
      <p role="alert">
        {missingFile
          ? 'A file of this page could not be loaded: the server may be out of reach, or the admin was updated ' +
            'and this page is not in the new version yet. Reloading may help.'
          : 'Something went wrong while showing this page. The rest of the admin still works.'}
      </p>
      <p>
        <button type="button" className="button button--secondary" onClick={reload}>
          Reload the page
        </button>{' '}
        <Link to="/">Go to the dashboard</Link>
      </p>
      {!missingFile && error instanceof Error && (
        <details>
          <summary>What went wrong</summary>
          <pre>{error.message}</pre>
        </details>
      )}
    </div>
  );
}

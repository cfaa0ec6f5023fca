import { Link } from 'react-router-dom';
import type { ApiError } from '../core';
import { PageHeading } from '../layout/page-heading';

/** A page's data could not be loaded: say what, and offer a way on. */
export function PageError({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const notFound = error.status === 404;
  return (
    <div className="page-error" role="alert">
      <PageHeading title={notFound ? 'Not found' : 'Could not load this page'} />
      <p>{notFound ? 'It does not exist, or not in the current tenant.' : error.message}</p>
      <p className="inline">
        {!notFound && onRetry && (
          <button type="button" className="button button--secondary" onClick={onRetry}>
            Try again
          </button>
        )}
        <Link to="/">Back to the dashboard</Link>
      </p>
    </div>
  );
}

import { Link } from 'react-router-dom';
import type { ApiError } from '../core';

/** A page's data could not be loaded: say what, and offer a way on. */
export function PageError({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const notFound = error.status === 404;
  return (
    <div className="page-error" role="alert">
      <h1 className="page__title">{notFound ? 'Not found' : 'Could not load this page'}</h1>
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

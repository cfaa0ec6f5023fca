import { Link } from 'react-router-dom';
import type { ApiError } from '../../core';
import { DeletedRecordMessage } from '../../forms/restore-deadline';
import { PageHeading } from '../../layout/page-heading';
import { deletedRecordsAddress } from './deleted-records-address';

/**
 * A page's data could not be loaded: say what, and offer a way on. A record not found because it was deleted (the
 * 404 names it, `deletedRecord`) is said to be so, as the server words it (its deadline in the reader's clock), with
 * the way to restore it.
 */
export function PageError({
  error,
  onRetry,
  retryLabel = 'Try again',
}: {
  error: ApiError;
  onRetry?: () => void;
  /** What the retry does, when it does more than ask again (a list's first page). */
  retryLabel?: string;
}) {
  const notFound = error.status === 404;
  const deleted = notFound ? error.deletedRecord : null;
  return (
    <div className="page-error" role="alert">
      <PageHeading title={deleted ? 'Record deleted' : notFound ? 'Not found' : 'Could not load this page'} />
      <p>
        {deleted ? (
          <DeletedRecordMessage message={error.message} restorableUntil={deleted.restorableUntil} />
        ) : notFound ? (
          'It does not exist, or not in the current tenant.'
        ) : (
          error.message
        )}
      </p>
      <p className="inline">
        {!notFound && onRetry && (
          <button type="button" className="button button--secondary" onClick={onRetry}>
            {retryLabel}
          </button>
        )}
        {deleted && <Link to={deletedRecordsAddress(deleted.resource)}>Go to Recently deleted</Link>}
        <Link to="/">Back to the dashboard</Link>
      </p>
    </div>
  );
}

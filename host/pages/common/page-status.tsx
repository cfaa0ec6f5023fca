import type { ApiError } from '../../core';
import { PageError } from './page-error';

/** A page whose data is not ready: still loading, or failed (with what to do to try again). */
export type PageStatusProps =
  | { status: 'loading' }
  | { status: 'error'; error: ApiError; retry(): void; retryLabel?: string };

/** What a page shows until its data is ready: an announced "Loading…", or what failed and a way on. */
export function PageStatus(props: PageStatusProps) {
  if (props.status === 'error') {
    return <PageError error={props.error} onRetry={props.retry} retryLabel={props.retryLabel} />;
  }
  return (
    <p className="page-status" role="status">
      Loading…
    </p>
  );
}

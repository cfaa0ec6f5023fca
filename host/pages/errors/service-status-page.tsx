import type { HealthPayload } from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { PageHeading } from '../../layout/page-heading';

/** How each readiness check reads for staff. */
const CHECK_STATES: Record<'ok' | 'failing', string> = { ok: 'Working', failing: 'Not working' };

/**
 * The service status, inside the app (the footer links here): whether the server is ready to serve, check by check,
 * from `GET /readyz`. Open to every visitor, like the JSON it reads; signing in is not needed to see it.
 */
export function ServiceStatusPage() {
  const readiness = useApi<HealthPayload>('/readyz');
  return (
    <div className="page">
      <PageHeading title="Service status" />
      {readiness.status === 'loading' && (
        <p className="page-status" role="status">
          Checking the service…
        </p>
      )}
      {readiness.status === 'ready' && (
        <section className="card" aria-label="Checks" data-service-status="ok">
          <p>All services are working.</p>
          <dl className="status-checks">
            {Object.entries(readiness.data.checks ?? {}).map(([name, state]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{CHECK_STATES[state]}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {readiness.status === 'error' && (
        <p className="form-error" role="alert" data-service-status="unavailable">
          {readiness.error.status === 0
            ? 'The server could not be reached. Check your connection, then reload.'
            : `Some services are not working: ${readiness.error.message}`}
        </p>
      )}
    </div>
  );
}

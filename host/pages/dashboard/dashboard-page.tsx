import { SlotLocation } from '../../../shared';
import { AppSlotRenderer, useSlotData } from '../../core';
import { PageHeading } from '../../layout/page-heading';

/** The dashboard: the cards of GET /meta between dashboard-before-cards and dashboard-after-cards. */
export function DashboardPage() {
  const { meta, status, error } = useSlotData();
  const dashboards = meta?.dashboards ?? [];
  return (
    <div className="page">
      <PageHeading title="Dashboard" />
      <AppSlotRenderer location={SlotLocation.DASHBOARD_BEFORE_CARDS} />
      {status === 'loading' && dashboards.length === 0 && (
        <p className="page-status" role="status">
          Loading the dashboard…
        </p>
      )}
      {status === 'error' && (
        <p className="form-error" role="alert">
          The dashboard could not be loaded: {error}
        </p>
      )}
      {dashboards.map((dashboard) => (
        <section
          className="dashboard"
          key={dashboard.name}
          aria-label={dashboard.label}
          data-dashboard={dashboard.name}
        >
          <h2 className="section-title">{dashboard.label}</h2>
          {dashboard.unavailable && (
            <p className="muted" data-dashboard-unavailable="">
              These figures could not be worked out just now. Reload the page in a moment to try again.
            </p>
          )}
          <div className="stat-cards">
            {dashboard.cards.map((card) => (
              <article className="stat-card" key={card.title}>
                <p className="stat-card__title">{card.title}</p>
                <p className="stat-card__value">{card.value}</p>
              </article>
            ))}
          </div>
        </section>
      ))}
      <AppSlotRenderer location={SlotLocation.DASHBOARD_AFTER_CARDS} />
    </div>
  );
}

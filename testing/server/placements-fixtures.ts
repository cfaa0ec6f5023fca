import type { PlacementsDocument } from '../../shared';
import type { FixtureDist } from './fixture-dist';

/** The props schema of team_billing's InvoiceBanner: a required string `title`, nothing else. */
export const BANNER_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};

/**
 * The remotes the placements tests place: team_billing (InvoiceBanner, whose props BANNER_SCHEMA checks, and
 * InvoiceNote) and team_news (NewsTicker and Welcome).
 */
export function addPlacedRemotes(dist: FixtureDist): void {
  dist.addRemote({
    name: 'team_billing',
    components: ['InvoiceBanner', 'InvoiceNote'],
    formComponents: [],
    props: { InvoiceBanner: BANNER_SCHEMA },
  });
  dist.addRemote({ name: 'team_news', components: ['NewsTicker', 'Welcome'], formComponents: [] });
}

/** A placements document with one slot: team_news's NewsTicker at dashboard-before-cards, at `priority`. */
export function newsTickerAt(priority: number): PlacementsDocument {
  return {
    remotes: [{ name: 'team_news', slots: { 'dashboard-before-cards': [{ component: 'NewsTicker', priority }] } }],
  };
}

import { OPERATOR_ROLE, PLACEMENTS_PREVIEW_PATH, type PlacementsDocument, type PlacementsPayload } from '../../shared';
import { createFakeApi, type FakeApi, type FakeRoute } from './fake-api';
import { demoMe } from './render-app';

/**
 * The API of the placements page for an operator whose draft is `draft` and nothing else is placed or published yet
 * (no components, no diff, no revisions; preview choices of one tenant), with `overview`'s fields and `routes` laid
 * over it: what a test of the page changes is then all that it writes.
 */
export function placementsPageApi(
  draft: PlacementsDocument,
  overview: Partial<PlacementsPayload> = {},
  routes: Record<string, FakeRoute> = {},
): FakeApi {
  const payload: PlacementsPayload = {
    draft: { document: draft as never, updatedBy: 'admin', updatedAt: '2026-11-23T10:00:00.000Z' },
    problems: [],
    preview: {},
    published: null,
    ...overview,
  };
  return createFakeApi({
    'GET /me': { body: demoMe([OPERATOR_ROLE]) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/placements': { body: payload },
    'GET /api/placements/components': { body: { remotes: [] } },
    'GET /api/placements/diff': { body: { revision: 0, changes: [] } },
    'GET /api/placements/revisions': { body: { revisions: [], inForce: 0 } },
    [`GET ${PLACEMENTS_PREVIEW_PATH}`]: {
      body: { roles: ['viewer', 'editor', 'operator'], tenants: [{ id: 'acme', name: 'Acme Corp' }], flags: [] },
    },
    ...routes,
  });
}

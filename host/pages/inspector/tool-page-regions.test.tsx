/**
 * The tool pages' landmarks: a screen reader's region list holds their tables (which a keyboard scrolls), not one
 * more region per section (a <section> with a name is a region).
 */
import '../../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import {
  LOCATIONS_PAGE_PATH,
  SLOT_INSPECTOR_PATH,
  type CatalogueLocation,
  type LocationsPayload,
  type SlotInspectionPayload,
} from '../../../shared';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

function location(name: CatalogueLocation['location'], filled: boolean): CatalogueLocation {
  return {
    location: name,
    visibility: 'public',
    contextProps: [],
    allowedRemotes: null,
    slots: filled
      ? [
          {
            id: 'Banner',
            component: 'Banner',
            remote: 'team_marketing',
            source: 'code',
            priority: 50,
            visibleToYou: true,
          },
        ]
      : [],
  };
}

function renderPage(path: string, answers: Record<string, unknown>) {
  const fake = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    ...Object.fromEntries(Object.entries(answers).map(([route, body]) => [route, { body }])),
  });
  return renderAppAt(fake, path);
}

describe('the regions of the tool pages', () => {
  it('/locations: one region per table of slots, none per location', async () => {
    const catalogue: LocationsPayload = {
      locations: [location('header-banner', true), location('login-sidebar', false), location('tenant-switcher', true)],
    };
    renderPage(LOCATIONS_PAGE_PATH, { 'GET /api/locations': catalogue });
    // By its text: jsdom lays `<wbr>` (BreakableText) out as a block, whose name then holds a space Chromium's has not.
    await screen.findByText((_, element) => element?.tagName === 'H2' && element.textContent === 'login-sidebar');
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
      'Slots of header-banner',
      'Slots of tenant-switcher',
    ]);
  });

  it('/inspect: its tables are the regions, its sections are not', async () => {
    const inspection: SlotInspectionPayload = { locations: {}, forms: {}, remotes: [] };
    renderPage(SLOT_INSPECTOR_PATH, { 'GET /api/slots/inspect': inspection });
    await screen.findByRole('heading', { name: 'Remotes', level: 2 });
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
      'Every slot of every location, as the server registered it, and its loads in the last hour',
      'Every remote with its entry, status and components',
    ]);
  });
});

import '../../../testing/host/router-globals';
import { screen, within } from '@testing-library/react';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

describe('DashboardPage', () => {
  it("shows each dashboard's cards, and says so of one whose figures the server could not work out", async () => {
    const fake = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': {
        body: {
          dashboards: [
            { name: 'overview', label: 'Overview', cards: [{ title: 'Articles', value: 4 }] },
            { name: 'warehouse', label: 'Warehouse', cards: [], unavailable: true },
          ],
          modules: [],
          slots: {},
        },
      },
    });
    renderAppAt(fake, '/');

    const overview = await screen.findByRole('region', { name: 'Overview' });
    expect(within(overview).getByText('Articles')).toBeTruthy();
    expect(within(overview).queryByText(/could not be worked out/)).toBeNull();
    const warehouse = screen.getByRole('region', { name: 'Warehouse' });
    expect(within(warehouse).getByText(/These figures could not be worked out just now/)).toBeTruthy();
  });
});

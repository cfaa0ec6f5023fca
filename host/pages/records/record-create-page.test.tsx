import '../../../testing/host/router-globals';
import { screen, waitFor } from '@testing-library/react';
import type { ResourceDefinition } from '../../../shared';
import { ARTICLES_DEFINITION } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { documentTitle } from '../../layout/page-heading';

/** The New page's heading: what one record is called (the resource's recordLabel), as the other pages' messages do. */
function renderNew(definition: ResourceDefinition): void {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: definition } },
  });
  renderAppAt(api, '/resources/articles/new');
}

describe('the New page of a resource', () => {
  it('is headed with what one record is called', async () => {
    renderNew(ARTICLES_DEFINITION);
    expect(await screen.findByRole('heading', { level: 1, name: 'New article' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(documentTitle('New article · Articles')));
  });

  it('says "record" for a resource that names none', async () => {
    const { recordLabel: _none, ...definition } = ARTICLES_DEFINITION;
    renderNew(definition);
    expect(await screen.findByRole('heading', { level: 1, name: 'New record' })).toBeTruthy();
  });
});

import '../../../testing/host/router-globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ResourceDefinition, ResourceRecord } from '../../../shared';
import { articlesPage, ARTICLES_DEFINITION } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';

/**
 * Text people give (a record's title, its fields) in its own direction: a Hebrew or Arabic title inside the
 * interface's English showed "מה חדש?" with its question mark at the wrong end and "3 مقالات جديدة" with its 3 on the
 * left. Isolated in a `<bdi>` where the interface's words surround it; the boxes it is typed into take their direction
 * from it. The accessible names stay the text itself.
 */
const HEBREW = 'מה חדש?';
const ARABIC = '3 مقالات جديدة';

const DEFINITION: ResourceDefinition = {
  ...ARTICLES_DEFINITION,
  fields: [
    { type: 'field', name: 'title', label: 'Title', input: 'text' },
    { type: 'field', name: 'body', label: 'Body', input: 'textarea' },
    { type: 'field', name: 'contact', label: 'Contact', input: 'email' },
  ],
};
fakeModalDialogs();

const RECORD: ResourceRecord = { id: 7, title: HEBREW, label: 'L', body: ARABIC, contact: 'a@example.com' };

function renderAt(path: string): void {
  const api = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/resources/articles': { body: { resource: DEFINITION } },
    'GET /api/resources/articles/records/7': { body: { record: RECORD, relations: [] } },
    'GET /api/resources/articles/records': { body: articlesPage([RECORD, { id: 8, title: ARABIC, label: 'L' }]) },
  });
  renderAppAt(api, path);
}

/** The text of each `<bdi>` within `element`. */
const isolated = (element: Element) => Array.from(element.querySelectorAll('bdi'), (bdi) => bdi.textContent);

describe('the text of records in its own direction', () => {
  it('on the record page: the heading, the breadcrumb and the field values', async () => {
    renderAt('/resources/articles/7');
    const heading = await screen.findByRole('heading', { level: 1, name: HEBREW });
    expect(isolated(heading)).toEqual([HEBREW]);
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(isolated(trail)).toEqual(['Dashboard', 'Articles', HEBREW]);
    const fields = screen.getByRole('region', { name: 'Fields' });
    expect(isolated(fields)).toEqual([HEBREW]);
    const body = fields.querySelector('[data-field="body"] dd > *');
    expect([body?.textContent, body?.getAttribute('dir')]).toEqual([ARABIC, 'auto']);
  });

  it('on the edit page: the heading, and the free-text boxes, not the address', async () => {
    renderAt('/resources/articles/7/edit');
    const heading = await screen.findByRole('heading', { level: 1, name: `Edit ${HEBREW}` });
    expect(isolated(heading)).toEqual([HEBREW]);
    expect(screen.getByLabelText(/Title/).getAttribute('dir')).toBe('auto');
    expect(screen.getByLabelText(/Body/).getAttribute('dir')).toBe('auto');
    expect(screen.getByLabelText(/Contact/).getAttribute('dir')).toBeNull();
  });

  it('in the list: each title in its cell, the Delete question naming it', async () => {
    renderAt('/resources/articles');
    const link = await screen.findByRole('link', { name: ARABIC });
    expect(isolated(link)).toEqual([ARABIC]);
    expect(isolated(screen.getByRole('link', { name: HEBREW }))).toEqual([HEBREW]);
    const row = link.closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: `Delete ${ARABIC}` }));
    const question = screen.getByRole('dialog', { name: `Delete “${ARABIC}”?` });
    expect(isolated(question)).toEqual([ARABIC]);
  });
});

import '../../../testing/host/router-globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ResourceRecord } from '../../../shared';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

/**
 * A list has a Delete per row: each one's dialog is made when it is first asked for, not with the row (25 closed
 * dialogs were a third of a list page's elements, made and thrown away at every page).
 */
fakeModalDialogs();

const ROWS: ResourceRecord[] = [1, 2, 3].map((id) => ({ id, title: `Article ${id}`, label: `L${id}` }));

describe('Delete in a list row', () => {
  it('makes its dialog when pressed, opens it on Cancel, and opens the same one again', async () => {
    renderAppAt(
      createFakeApi({
        'GET /me': { body: demoMe([]) },
        'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
        'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
        'GET /api/resources/articles/records': { body: articlesPage(ROWS) },
      }),
      '/resources/articles',
    );
    const button = await screen.findByRole('button', { name: 'Delete Article 2' });
    const table = screen.getByRole('table');
    expect(table.querySelectorAll('dialog')).toHaveLength(0);

    button.focus();
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Delete “Article 2”?' });
    expect(table.querySelectorAll('dialog')).toHaveLength(1);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(screen.getByRole('dialog', { name: 'Delete “Article 2”?' })).toBe(dialog);
  });
});

import '../../../testing/host/router-globals';
import { render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ARTICLES_DEFINITION, articlesPage } from '../../../testing/host/articles-fixture';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { RecordTableFrame } from './record-table-frame';

/**
 * A record list's scrolling frame: on a phone it scrolls sideways under the pinned actions column, so a keyboard must
 * be able to scroll it (a named region in the Tab order) and what takes the focus must land clear of that column.
 */

describe('the frame of a record list', () => {
  it('is a region named after the resource’s records, in the Tab order, around the list’s table', async () => {
    renderAppAt(
      createFakeApi({
        'GET /me': { body: demoMe([]) },
        'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
        'GET /api/resources/articles': { body: { resource: ARTICLES_DEFINITION } },
        'GET /api/resources/articles/records': { body: articlesPage([{ id: 1, title: 'Kept article', label: 'K' }]) },
      }),
      '/resources/articles',
    );
    const region = await screen.findByRole('region', { name: 'Articles records' });
    expect(region.classList.contains('table-wrap')).toBe(true);
    expect(region.tabIndex).toBe(0);
    expect(within(region).getByRole('button', { name: 'Title' }).closest('table')?.parentElement).toBe(region);
  });

  it('is no region without a label', () => {
    render(
      <RecordTableFrame>
        <table className="table table--records" />
      </RecordTableFrame>,
    );
    const frame = document.querySelector('.table-wrap') as HTMLElement;
    expect([frame.getAttribute('role'), frame.getAttribute('tabindex'), frame.getAttribute('aria-label')]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('scrolls what takes the focus clear of the pinned actions column, on a phone too', () => {
    const css = readFileSync(path.join(__dirname, '..', 'common', 'pages.css'), 'utf8');
    const paddings = [
      ...css.matchAll(/\.table-wrap\[data-overflowing\]\s*\{\s*scroll-padding-inline-end: ([\d.]+)rem;/g),
    ];
    expect(paddings).toHaveLength(2);
    const [wide, phone] = paddings.map((match) => Number(match[1]));
    const phoneColumn = /\.table--records td\.table__actions \{[^}]*width: ([\d.]+)rem;/.exec(css);
    expect(phoneColumn).not.toBeNull();
    expect(phone).toBeGreaterThan(Number(phoneColumn?.[1]));
    expect(wide).toBeGreaterThan(phone ?? 0);
  });
});

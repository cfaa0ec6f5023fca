import '../../../testing/host/router-globals';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SlotLocation, type PlacementProblem, type PlacementsDocument } from '../../../shared';
import { PlacementsContents } from './placements-contents';

const DOCUMENT: PlacementsDocument = {
  remotes: [
    {
      name: 'team_news',
      slots: { 'dashboard-before-cards': [{ component: 'NewsTicker' }, { component: 'Welcome' }] },
      forms: { articles: [{ component: 'SeoHint', position: { after: 'title' } }] },
    },
  ],
};

function problemAt(location: string, index: number): PlacementProblem {
  return {
    remote: 'team_news',
    location,
    index,
    component: 'Welcome',
    kind: 'props-invalid',
    path: null,
    message: 'Wrong.',
    blocking: true,
  };
}

describe('PlacementsContents', () => {
  it('maps every location by the part of the admin it is in, with its slots and problems, and links each', () => {
    render(
      <MemoryRouter initialEntries={['/placements?location=dashboard-before-cards']}>
        <PlacementsContents
          document={DOCUMENT}
          problems={[problemAt('dashboard-before-cards', 1), problemAt('resource form "articles"', 0)]}
          preview={{
            'dashboard-before-cards': [
              { id: 'Hello', component: 'Hello', remote: null, source: 'code' },
              { id: 'NewsTicker', component: 'NewsTicker', remote: 'team_news', source: 'draft' },
            ],
          }}
          chosen="dashboard-before-cards"
        />
      </MemoryRouter>,
    );
    const map = screen.getByRole('navigation', { name: 'Locations' });
    const links = within(map).getAllByRole('listitem');
    expect(links).toHaveLength(SlotLocation.cases().length + 1);
    const entry = (label: string) => links.find((item) => item.querySelector('a')?.textContent === label)!;

    expect(entry('dashboard-before-cards').textContent).toBe(
      'dashboard-before-cards (2 in the draft, 1 of code or the file, 1 problem)',
    );
    expect(entry('dashboard-before-cards').querySelector('a')?.getAttribute('href')).toBe(
      '/placements?location=dashboard-before-cards',
    );
    expect(entry('dashboard-before-cards').querySelector('a')?.getAttribute('aria-current')).toBe('page');
    expect(entry('login-before-form').textContent).toBe('login-before-form (empty)');
    expect(entry('login-before-form').querySelector('a')?.getAttribute('aria-current')).toBeNull();
    expect(entry('Form slots').textContent).toBe('Form slots (1 in the draft, 1 problem)');
    expect(entry('Form slots').querySelector('a')?.getAttribute('href')).toBe('/placements?location=forms');
    // A location with problems stands out.
    expect(entry('login-before-form').className).toBe('');
    expect(entry('Form slots').className).toBe('placements__contents-problem');
    // Grouped by where they are: the sign-in page's, the dashboard's, the record pages', the rest's, the forms.
    expect(
      within(map)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual([
      'Sign-in page',
      'Dashboard',
      'Record pages',
      'Every page (header, around the content, tenant switcher)',
      'Resource forms',
    ]);
    const area = (name: string) =>
      within(within(map).getByRole('heading', { name }).parentElement!)
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(area('Sign-in page')).toEqual(['login-before-form', 'login-after-form', 'login-sidebar']);
    expect(area('Every page (header, around the content, tenant switcher)')).toEqual([
      'global-before-content',
      'global-after-content',
      'header-banner',
      'tenant-switcher',
    ]);
  });
});

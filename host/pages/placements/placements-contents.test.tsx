import { render, screen, within } from '@testing-library/react';
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
  it('links every location and the form slots to their sections, with what the draft places there', () => {
    render(
      <PlacementsContents
        document={DOCUMENT}
        problems={[problemAt('dashboard-before-cards', 1), problemAt('resource form "articles"', 0)]}
      />,
    );
    const links = within(screen.getByRole('navigation', { name: 'Locations of the draft' })).getAllByRole('listitem');
    expect(links).toHaveLength(SlotLocation.cases().length + 1);
    const entry = (label: string) => links.find((item) => item.querySelector('a')?.textContent === label)!;

    expect(entry('dashboard-before-cards').textContent).toBe('dashboard-before-cards (2 in the draft, 1 problem)');
    expect(entry('dashboard-before-cards').querySelector('a')?.getAttribute('href')).toBe(
      '#placements-dashboard-before-cards',
    );
    expect(entry('login-before-form').textContent).toBe('login-before-form (none in the draft)');
    expect(entry('Form slots').textContent).toBe('Form slots (1 in the draft, 1 problem)');
    expect(entry('Form slots').querySelector('a')?.getAttribute('href')).toBe('#placements-forms');
    // A section with problems stands out.
    expect(entry('login-before-form').className).toBe('');
    expect(entry('Form slots').className).toBe('placements__contents-problem');
  });
});

/**
 * The names of the location catalogue break as the slot inspector's do (BreakableText): a heading or a fact between
 * a name's parts (after a location's `-`, a path's `/`, a name's `.`) only when the name is wider than its line, never
 * inside a word (its heading and facts broke anywhere a browser chose); a table's cell only after a path's `/` (a slot
 * id's `-` offered a break, which a narrow table took while it scrolled anyway, where the inspector kept it whole).
 */
import '../../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import { LOCATIONS_PAGE_PATH, type LocationsPayload } from '../../../shared';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';

const catalogue: LocationsPayload = {
  locations: [
    {
      location: 'resource-before-relations',
      visibility: 'protected',
      contextProps: ['resource', 'resourceId'],
      allowedRemotes: ['team_marketing', 'team_records'],
      slots: [
        {
          id: 'promo.wide',
          component: 'marketing/Promo-v2',
          remote: 'team_marketing',
          source: 'configuration',
          priority: 50,
          visibleToYou: true,
        },
      ],
    },
  ],
};

it('offers a break between the parts of a location’s name, a slot’s id and component whole but at a slash, their text unchanged', async () => {
  const fake = createFakeApi({
    'GET /me': { body: demoMe([]) },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/locations': { body: catalogue },
  });
  renderAppAt(fake, LOCATIONS_PAGE_PATH);
  // By its text: jsdom lays `<wbr>` out as a block, whose name then holds a space Chromium's has not.
  const heading = await screen.findByText(
    (_, element) => element?.tagName === 'H2' && element.textContent === 'resource-before-relations',
  );
  expect(heading.innerHTML).toBe('resource-<wbr>before-<wbr>relations');
  const section = heading.closest('section')!;
  expect([...section.querySelectorAll('dd')].map((fact) => fact.innerHTML)).toEqual([
    'protected (signed in only)',
    'resource, resourceId',
    'team_marketing, team_records',
  ]);
  const cells = [...section.querySelectorAll('tbody td')].slice(1, 4);
  expect(cells.map((cell) => cell.textContent)).toEqual(['promo.wide', 'marketing/Promo-v2', 'team_marketing']);
  expect(
    cells.map((cell) => cell.innerHTML.replace(/<span class="breakable-text__part">(.*?)<\/span>/g, '[$1]')),
  ).toEqual(['[promo.wide]', '[marketing/]<wbr>[Promo-v2]', '[team_marketing]']);
});

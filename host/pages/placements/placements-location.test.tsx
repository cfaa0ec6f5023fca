import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { PlacementComponentsPayload, PlacementsDocument } from '../../../shared';
import { addSlot, slotsAt } from './placements-draft';
import { PlacementsLocation } from './placements-location';
import { locationIds } from './placements-slot-ids';

const COMPONENTS: PlacementComponentsPayload = {
  remotes: [
    {
      name: 'team_marketing',
      components: [
        { name: 'Banner', schema: null, form: false },
        { name: 'Callout', schema: null, form: false },
      ],
    },
  ],
};

/** One location of the editor over a draft held here, as the placements page holds it. */
function Location({ initial }: { initial: PlacementsDocument }) {
  const [document, setDocument] = useState(initial);
  return (
    <PlacementsLocation
      location="header-banner"
      isPublic
      slots={slotsAt(document, 'header-banner')}
      problems={[]}
      preview={undefined}
      ids={locationIds(document, 'header-banner', undefined)}
      components={COMPONENTS}
      change={() => undefined}
      add={(remote, component) => setDocument((current) => addSlot(current, remote, 'header-banner', component))}
    />
  );
}

function add(component: string) {
  fireEvent.change(screen.getByLabelText('Add a slot at header-banner'), {
    target: { value: `team_marketing:${component}` },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
}

describe('adding a slot in the placements editor', () => {
  it('says what was added and gives the focus to the new entry, wherever the priority order puts it', () => {
    // Priority 90: the entry added (priority 50) comes first in the list.
    render(
      <Location
        initial={{
          remotes: [{ name: 'team_marketing', slots: { 'header-banner': [{ component: 'Banner', priority: 90 }] } }],
        }}
      />,
    );
    add('Callout');
    expect(screen.getAllByLabelText(/^Priority of /)).toHaveLength(2);
    expect(document.activeElement).toBe(
      screen.getByLabelText('Priority of Callout (team_marketing) #1 at header-banner'),
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Added Callout (team_marketing) at header-banner: 2 slots there in the draft.',
    );

    // The same component again is said again: the count makes the words new for the live region.
    add('Callout');
    // Priority 50 as the first: after it, the second card of the list (Banner, 90, is third).
    expect(document.activeElement).toBe(
      screen.getByLabelText('Priority of Callout (team_marketing) #2 at header-banner'),
    );
    expect(within(screen.getByRole('status')).getByText(/3 slots there/)).toBeTruthy();
  });

  it('adds the first slot of an empty location and focuses it', () => {
    render(<Location initial={{}} />);
    expect(screen.getByText('The draft places nothing here.')).toBeTruthy();
    add('Banner');
    expect(document.activeElement).toBe(
      screen.getByLabelText('Priority of Banner (team_marketing) #1 at header-banner'),
    );
  });
});

/**
 * A refusal's problem lines name each slot as the editor lists it: its card's place at its location (lower priority
 * first), not its index in the document, which the page does not show.
 */
import type { JsonValue, PlacementProblem } from '../../shared';
import { placementProblemLine } from './placement-problem-line';

const AT = 'dashboard-before-cards';

/** team_billing places three slots at AT; the page lists them InvoiceNote (10), InvoiceBanner (50), the note (90). */
const DOCUMENT: JsonValue = {
  remotes: [
    {
      name: 'team_billing',
      slots: {
        [AT]: [
          { component: 'InvoiceBanner', props: {} },
          { component: 'InvoiceNote', id: 'late-note', priority: 90 },
          { component: 'InvoiceNote', priority: 10 },
          'not a slot',
        ],
      },
      forms: { notes: [{ component: 'SlugPreview' }], invoices: [{ component: 'InvoiceTotal' }] },
    },
  ],
};

function problem(at: Partial<PlacementProblem>): PlacementProblem {
  return {
    remote: 'team_billing',
    location: AT,
    index: 0,
    component: null,
    kind: 'props-invalid',
    path: null,
    message: 'is wrong',
    blocking: true,
    ...at,
  };
}

describe('a refused publish’s problem line', () => {
  it('numbers a slot by its card on the page, with the card’s title and the id it is given', () => {
    expect(placementProblemLine(problem({ index: 0, component: 'InvoiceBanner', path: 'props.title' }), DOCUMENT)).toBe(
      `${AT} #2, InvoiceBanner (team_billing): props.title is wrong`,
    );
    expect(placementProblemLine(problem({ index: 2, component: 'InvoiceNote' }), DOCUMENT)).toBe(
      `${AT} #1, InvoiceNote (team_billing): is wrong`,
    );
    expect(placementProblemLine(problem({ index: 1, component: 'InvoiceNote' }), DOCUMENT)).toBe(
      `${AT} #3, InvoiceNote (team_billing), id "late-note": is wrong`,
    );
  });

  it('numbers a form slot among the form slots the page lists, and says where an unlisted item is', () => {
    const form = problem({ location: 'resource form "invoices"', index: 0, component: 'InvoiceTotal' });
    expect(placementProblemLine(form, DOCUMENT)).toBe(
      'Form slots #2, InvoiceTotal (team_billing), resource form "invoices": is wrong',
    );
    expect(placementProblemLine(problem({ index: 3, kind: 'invalid-document' }), DOCUMENT)).toBe(
      `${AT}, item 4 of team_billing's list: is wrong`,
    );
  });

  it('names what is not a slot of the document as before: the document, an entry, a slot of code', () => {
    expect(placementProblemLine(problem({ remote: null, location: null, index: null }), DOCUMENT)).toBe('is wrong');
    expect(placementProblemLine(problem({ location: null, index: null }), DOCUMENT)).toBe('team_billing: is wrong');
    const codeSlot = problem({ remote: null, index: null, component: 'Welcome' });
    expect(placementProblemLine(codeSlot, null)).toBe(`${AT}, Welcome: is wrong`);
  });
});

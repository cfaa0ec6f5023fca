import type { PlacementChange } from '../../../shared';
import { publishQuestion } from './placements-publish-question';

const change = (kind: PlacementChange['change']): PlacementChange => ({
  change: kind,
  location: 'dashboard-after-cards',
  remote: null,
  id: null,
  before: null,
  after: null,
});

describe('publishQuestion', () => {
  it('counts the changes by kind', () => {
    expect(publishQuestion([change('added'), change('added'), change('removed'), change('order')], false)).toBe(
      'It makes 4 changes: 2 slots added, 1 slot removed, 1 location in another order. Every host serves the new ' +
        'revision within seconds.',
    );
  });

  it('says when nothing changes, and that unsaved edits are saved first and not counted', () => {
    expect(publishQuestion([], true)).toBe(
      'The saved draft is what is published: nothing changes. Every host serves the new revision within seconds. ' +
        'Your unsaved changes are saved first; the counts are of the saved draft without them.',
    );
  });

  it('says what it changes is not known when the saved draft cannot be read', () => {
    expect(publishQuestion(null, false)).toBe(
      'What it changes is not known: part of the saved draft cannot be read, so the server will refuse it.',
    );
  });
});

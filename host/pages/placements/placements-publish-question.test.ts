import type { PlacementChange } from '../../../shared';
import { nothingToPublish, publishQuestion } from './placements-publish-question';

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

  it('says that unsaved edits are what is published when the saved draft is what is published', () => {
    expect(publishQuestion([], true)).toBe(
      'The saved draft is what is published: your unsaved changes are saved first and are what it publishes. ' +
        'Every host serves the new revision within seconds.',
    );
  });

  it('says that unsaved edits are published besides the saved draft’s counted changes', () => {
    expect(publishQuestion([change('added')], true)).toBe(
      'It makes 1 change: 1 slot added, as saved; your unsaved changes are saved first and published with them, ' +
        'besides these counts. Every host serves the new revision within seconds.',
    );
  });

  it('says there is nothing to publish when nothing changes and nothing is unsaved', () => {
    expect(publishQuestion([], false)).toBe(
      'Nothing to publish: the saved draft is what is published, and there are no unsaved changes.',
    );
    expect(nothingToPublish([], false)).toBe(true);
    expect(nothingToPublish([], true)).toBe(false);
    expect(nothingToPublish([change('added')], false)).toBe(false);
    // Not known yet, or not readable: Publish stays offered (the server decides).
    expect(nothingToPublish(undefined, false)).toBe(false);
    expect(nothingToPublish(null, false)).toBe(false);
  });

  it('says what it changes is not known when the saved draft cannot be read', () => {
    expect(publishQuestion(null, false)).toBe(
      'What it changes is not known: part of the saved draft cannot be read, so the server will refuse it.',
    );
  });
});

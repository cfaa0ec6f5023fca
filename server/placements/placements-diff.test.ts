/**
 * The diff of a draft against the published revision, as a pure function of the two documents and the slots of code
 * and the file they join: content and order changes, slots without an id paired by what they are (not by their
 * place), named as the editor's order names them, and no diff for a draft that cannot be read.
 */
import { Slot, SlotLocation, type JsonValue, type PlacementChange } from '../../shared';
import type { RemotesConfig } from '../remotes/remotes-config';
import { SlotRegistry } from '../slots/slot-registry';
import { diffPlacements, type PlacedDocument } from './placements-diff';
import { EMPTY_DOCUMENT, parsePlacements } from './placements-document';
import { placedWith, previewPlacements } from './placements-preview';

const AT = 'dashboard-before-cards';

/** The file: team_billing's Callout at AT (so a document's first Callout there is `Callout#2`). */
const FILE: RemotesConfig = {
  remotes: [],
  pending: [],
  slots: [{ remote: 'team_billing', location: SlotLocation.tryFrom(AT)!, slot: Slot.untyped('Callout') }],
  forms: [],
  schemas: new Map(),
  locationRemotes: new Map(),
  disabled: [],
  allowedOrigins: [],
  sources: { builtIn: [], configFile: null },
};

/** Code's slots: Welcome at AT. */
function codeSlots(): SlotRegistry {
  const registry = new SlotRegistry();
  registry.register({ [AT]: Slot.untyped('Welcome') });
  return registry;
}

function placed(document: JsonValue, file: RemotesConfig = FILE): PlacedDocument {
  const parsed = parsePlacements(document);
  return { parsed, placed: placedWith(codeSlots(), file, parsed) };
}

/** A document placing `slots` of team_news at AT. */
function news(...slots: JsonValue[]): JsonValue {
  return { remotes: [{ name: 'team_news', slots: { [AT]: slots } }] };
}

function diff(published: JsonValue, draft: JsonValue): PlacementChange[] | null {
  return diffPlacements(placed(published), placed(draft));
}

/** Each change as `kind id`, for short expectations. */
function summary(changes: PlacementChange[] | null): string[] | null {
  return changes && changes.map((change) => `${change.change} ${change.id ?? change.location}`);
}

const card = (title: string): JsonValue => ({ component: 'WelcomeCard', props: { title } });

describe('the diff of a draft against the published revision', () => {
  it('reports a change of a slot’s content, which /meta serves', () => {
    const changes = diff(
      news({ component: 'Notice', content: 'Closed on Monday' }),
      news({ component: 'Notice', content: 'Closed on Tuesday' }),
    );
    expect(changes).toEqual([
      {
        change: 'changed',
        location: AT,
        remote: 'team_news',
        id: 'Notice',
        before: { component: 'Notice', props: {}, content: 'Closed on Monday' },
        after: { component: 'Notice', props: {}, content: 'Closed on Tuesday' },
      },
    ]);
  });

  it('reports an order change: two slots of equal priority swapped, each the same as before', () => {
    const a = { component: 'Notice', props: { text: 'a' } };
    const b = { component: 'Banner', props: { text: 'b' } };
    expect(diff(news(a, b), news(a, b))).toEqual([]);
    expect(diff(news(a, b), news(b, a))).toEqual([
      {
        change: 'order',
        location: AT,
        remote: null,
        id: null,
        // As served: code's Welcome, the file's Callout, then the document's by priority and document order.
        before: ['Welcome', 'Callout', 'Notice', 'Banner'],
        after: ['Welcome', 'Callout', 'Banner', 'Notice'],
      },
    ]);
    // Two slots of one component swapped: each is paired with its own, and the order changed.
    expect(summary(diff(news(card('a'), card('b')), news(card('b'), card('a'))))).toEqual([`order ${AT}`]);
    // A priority that changes the order: the slot changed, and so did the order.
    expect(summary(diff(news(a, b), news({ ...a, priority: 90 }, b)))).toEqual(['changed Notice', `order ${AT}`]);
  });

  it('reports no order where the draft places slots in a cycle, which cannot be ordered (its problem says so)', () => {
    const notice = { id: 'notice', component: 'Notice', props: {} };
    const banner = { id: 'banner', component: 'Banner', props: {} };
    const other = { id: 'other', component: 'Other', props: {} };
    // Ordered by a fallback (the cycle's slots after the others), `other` would seem to move before them.
    const cycle = news({ ...notice, before: 'banner' }, { ...banner, before: 'notice' }, other);
    expect(summary(diff(news(notice, banner, other), cycle))).toEqual(['changed notice', 'changed banner']);
    // Without the cycle, a move is an order change.
    expect(summary(diff(news(notice, banner, other), news(notice, { ...banner, before: 'notice' }, other)))).toEqual([
      'changed banner',
      `order ${AT}`,
    ]);
  });

  it('reports one slot removed or inserted among slots without an id, not the ones after it as changed', () => {
    const three = news(card('first'), card('second'), card('third'));
    const removed = diff(three, news(card('second'), card('third')));
    expect(removed).toEqual([
      {
        change: 'removed',
        location: AT,
        remote: 'team_news',
        id: 'WelcomeCard',
        before: card('first'),
        after: null,
      },
    ]);
    expect(summary(diff(three, news(card('first'), card('new'), card('second'), card('third'))))).toEqual([
      'added WelcomeCard#2',
    ]);
    // Identical slots: one fewer is one removed.
    expect(summary(diff(news(card('x'), card('x'), card('x')), news(card('x'), card('x'))))).toEqual([
      'removed WelcomeCard#3',
    ]);
    // One edited and another removed: the rest of a component pair in order.
    expect(summary(diff(news(card('a'), card('b')), news(card('b2'))))).toEqual([
      'changed WelcomeCard',
      'removed WelcomeCard#2',
    ]);
  });

  it('pairs slots with an id by their id, wherever they are', () => {
    const first = { component: 'WelcomeCard', id: 'first', props: { title: 'a' } };
    const second = { component: 'WelcomeCard', id: 'second', props: { title: 'b' } };
    const edited = { ...second, props: { title: 'b2' } };
    expect(summary(diff(news(first, second), news(edited)))).toEqual(['changed second', 'removed first']);
  });

  it('names a slot as the editor’s order names it, among code’s and the file’s slots too', () => {
    const draft = {
      remotes: [
        { name: 'team_news', slots: { [AT]: [{ component: 'Callout', props: { text: 'one' } }] } },
        { name: 'team_billing', slots: { [AT]: [{ component: 'Callout', props: { text: 'two' } }] } },
      ],
    };
    const changes = diff(EMPTY_DOCUMENT, draft);
    expect(summary(changes)).toEqual(['added Callout#2', 'added Callout#3']);
    const parsed = parsePlacements(draft);
    const order = previewPlacements(codeSlots(), FILE, parsed)[AT]!;
    expect(order.filter((slot) => slot.source === 'draft').map((slot) => slot.id)).toEqual(['Callout#2', 'Callout#3']);
    // A removed slot is named as it was in the revision.
    expect(summary(diffPlacements(placed(draft), placed(EMPTY_DOCUMENT)))).toEqual([
      'removed Callout#2',
      'removed Callout#3',
    ]);
  });

  it('has no diff for a draft with a slot that cannot be read, rather than calling that slot removed', () => {
    const published = news({ component: 'Notice', priority: 7 });
    expect(diff(published, news({ component: 'Notice', priority: '7' }))).toBeNull();
    expect(diff(published, { ...(news() as object), colour: 'blue' })).toBeNull();
    // The published revision compared with a readable draft is diffed as ever.
    expect(summary(diff(published, news()))).toEqual(['removed Notice']);
  });

  it('names a slot at a location an upgrade removed as removed once the draft moves it, so the publish counts it', () => {
    // The revision places a Notice at a location this version renamed (`dashboard-top`, say): it cannot be served.
    const notice = { component: 'Notice', props: { text: 'Closed on Monday' } };
    const published = { remotes: [{ name: 'team_news', slots: { 'dashboard-top': [notice] } }] };
    const changes = diff(published, news(notice));
    expect(changes).toEqual([
      { change: 'added', location: AT, remote: 'team_news', id: 'Notice', before: null, after: notice },
      { change: 'removed', location: 'dashboard-top', remote: 'team_news', id: 'Notice', before: notice, after: null },
    ]);
    // Dropped altogether, or named by its id: removed all the same.
    const named = { ...notice, id: 'closing' };
    expect(summary(diff({ remotes: [{ name: 'team_news', slots: { 'dashboard-top': [named] } }] }, news()))).toEqual([
      'removed closing',
    ]);
  });
});

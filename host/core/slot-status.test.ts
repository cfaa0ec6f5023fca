import { SlotStatus, type SlotPlace, type SlotTransition } from './slot-status';

const place = (component: string, index = 0): SlotPlace => ({
  page: '/dashboard',
  location: 'header-banner',
  index,
  component,
  remote: 'team_a',
});

/** A status on a clock the test moves. */
function statusAt(start = 100) {
  let time = start;
  const status = new SlotStatus(() => time);
  const transitions: SlotTransition[] = [];
  status.onTransition((transition) => transitions.push(transition));
  return { status, transitions, advance: (ms: number) => (time += ms) };
}

describe('SlotStatus', () => {
  it('lists the slots on the page now, each with its state, in the order they joined', () => {
    const { status } = statusAt();
    const a = status.handle();
    const b = status.handle();
    const leaveA = status.enter(a, place('A'));
    status.enter(b, place('B', 1));
    expect(status.snapshot().map((slot) => [slot.component, slot.state])).toEqual([
      ['A', 'loading'],
      ['B', 'loading'],
    ]);
    status.rendered(a, place('A'));
    status.failed(b, place('B', 1), 'render-error', 'B broke');
    expect(status.snapshot().map((slot) => [slot.component, slot.state, slot.failure?.kind ?? null])).toEqual([
      ['A', 'rendered', null],
      ['B', 'failed', 'render-error'],
    ]);
    leaveA();
    expect(status.snapshot().map((slot) => slot.component)).toEqual(['B']);
  });

  it('keeps the same frozen snapshot until something changes, and tells subscribers of each change', () => {
    const { status } = statusAt();
    const listener = jest.fn();
    status.subscribe(listener);
    const a = status.handle();
    status.enter(a, place('A'));
    const first = status.snapshot();
    expect(Object.isFrozen(first)).toBe(true);
    status.rendered(a, place('A'));
    status.rendered(a, place('A'));
    expect(status.snapshot()).not.toBe(first);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(Object.isFrozen(status.snapshot()[0])).toBe(true);
  });

  it('keeps the state written before the slot joined the page (its boundary commits before its wrapper)', () => {
    const { status } = statusAt();
    const a = status.handle();
    status.failed(a, place('A'), 'unknown-component', 'No A');
    expect(status.snapshot()).toEqual([]);
    const leave = status.enter(a, place('A'));
    expect(status.snapshot()[0]).toMatchObject({ state: 'failed', failure: { kind: 'unknown-component' } });
    // Leaving and coming back (StrictMode) keeps the state.
    leave();
    status.enter(a, place('A'));
    expect(status.snapshot()[0]?.state).toBe('failed');
  });

  it('times each transition: started when the slot first rendered, settled when it left loading', () => {
    const { status, transitions, advance } = statusAt(1000);
    const a = status.handle();
    advance(5);
    status.enter(a, place('A'));
    advance(40);
    status.rendered(a, place('A'));
    expect(transitions.map(({ slot }) => [slot.state, slot.startedAt, slot.settledAt])).toEqual([
      ['loading', 1000, null],
      ['rendered', 1000, 1045],
    ]);
    expect(transitions[1]?.previous?.state).toBe('loading');

    // A retry after a failure starts the clock again.
    advance(10);
    status.failed(a, place('A'), 'render-error', 'broke');
    advance(10);
    status.loading(a, place('A'));
    advance(30);
    status.rendered(a, place('A'));
    expect(transitions.slice(2).map(({ slot }) => [slot.state, slot.startedAt, slot.settledAt])).toEqual([
      ['failed', 1000, 1055],
      ['loading', 1065, null],
      ['rendered', 1065, 1095],
    ]);
  });

  it('tells a transition only when the state or the failure changes', () => {
    const { status, transitions } = statusAt();
    const a = status.handle();
    status.enter(a, place('A'));
    status.failed(a, place('A'), 'render-error', 'one');
    status.failed(a, place('A'), 'render-error', 'one');
    status.failed(a, place('A'), 'render-error', 'two');
    expect(transitions.map(({ slot }) => slot.failure?.message ?? slot.state)).toEqual(['loading', 'one', 'two']);
  });

  it('keeps the page a slot joined, and takes the remote it learns later', () => {
    const { status } = statusAt();
    const a = status.handle();
    status.enter(a, { ...place('A'), remote: null });
    status.enter(a, { ...place('A'), page: '/elsewhere' });
    expect(status.snapshot()[0]).toMatchObject({ page: '/dashboard', remote: 'team_a' });
    status.rendered(a, { ...place('A'), page: '/elsewhere' });
    expect(status.entryOf(a)).toMatchObject({ page: '/dashboard', state: 'rendered' });
  });

  it('tells the slots of a hidden location once per media query, without putting them on the page', () => {
    const { status, transitions } = statusAt();
    status.hidden(place('Promo'), '(min-width: 1024px)');
    status.hidden(place('Promo'), '(min-width: 1024px)');
    expect(status.snapshot()).toEqual([]);
    expect(transitions).toHaveLength(1);
    expect(transitions[0]?.slot).toMatchObject({ state: 'hidden', media: '(min-width: 1024px)', component: 'Promo' });
  });

  it('stops telling a listener that unsubscribed', () => {
    const { status } = statusAt();
    const listener = jest.fn();
    const stop = status.onTransition(listener);
    status.enter(status.handle(), place('A'));
    stop();
    status.enter(status.handle(), place('B'));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

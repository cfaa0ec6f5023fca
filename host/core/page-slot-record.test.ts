import { PageSlotRecord, type PageSlotStatus } from './page-slot-record';

const notice = (state: PageSlotStatus['state'], extra: Partial<PageSlotStatus> = {}): PageSlotStatus => ({
  location: 'login-before-form',
  index: 0,
  component: 'LoginNotice',
  remote: 'team_marketing',
  state,
  ...extra,
});

describe('PageSlotRecord', () => {
  it('keeps each slot’s latest state per page, the page updated last first, and tells its readers', () => {
    const record = new PageSlotRecord();
    const changes: number[] = [];
    const stop = record.subscribe(() => changes.push(record.snapshot().length));

    record.set('/login', notice('loading'));
    record.set('/login', notice('loaded'));
    record.set('/', notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' }));
    const before = record.snapshot();
    record.set('/', notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' }));
    expect(record.snapshot()).toBe(before); // the same state again changes nothing
    record.set('/login', notice('loaded', { index: 1 }));

    expect(record.snapshot()).toEqual([
      { page: '/login', slots: [notice('loaded'), notice('loaded', { index: 1 })] },
      {
        page: '/',
        slots: [notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' })],
      },
    ]);
    expect(Object.isFrozen(record.snapshot())).toBe(true);
    expect(changes).toEqual([1, 1, 2, 2]);
    stop();
    record.set('/status', notice('loaded'));
    expect(changes).toHaveLength(4);
  });
});

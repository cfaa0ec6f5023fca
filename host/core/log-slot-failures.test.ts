import { HOST_MESSAGES } from '../loader/messages';
import { logSlotFailures, type SlotFailure } from './log-slot-failures';
import { SlotStatus, type SlotPlace } from './slot-status';

const place = (component: string, location = 'header-banner'): SlotPlace => ({
  page: '/',
  location,
  index: 0,
  component,
  remote: 'team_a',
});

describe('logSlotFailures (a view of the slot status)', () => {
  it('logs each distinct failure once, with location, component, remote, kind and error', () => {
    const status = new SlotStatus();
    const logged: [string, SlotFailure][] = [];
    logSlotFailures(status, (message, failure) => logged.push([message, failure]));
    const a = status.handle();
    status.enter(a, place('A'));
    status.rendered(a, place('A'));
    status.failed(a, place('A'), 'render-error', 'broke');
    // The same failure again (a remount, StrictMode, another slot of the same place) is not logged again.
    status.loading(a, place('A'));
    status.failed(a, place('A'), 'render-error', 'broke');
    const again = status.handle();
    status.failed(again, place('A'), 'render-error', 'broke');
    // Another location is another failure.
    status.failed(status.handle(), place('A', 'footer-links'), 'render-error', 'broke');
    expect(logged).toEqual([
      [
        HOST_MESSAGES.slotFailureLog,
        { location: 'header-banner', component: 'A', remote: 'team_a', kind: 'render-error', error: 'broke' },
      ],
      [
        HOST_MESSAGES.slotFailureLog,
        { location: 'footer-links', component: 'A', remote: 'team_a', kind: 'render-error', error: 'broke' },
      ],
    ]);
  });

  it('logs through console.error by default, and stops when told', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const status = new SlotStatus();
    const stop = logSlotFailures(status);
    status.failed(status.handle(), place('A'), 'unknown-component', 'No A');
    stop();
    status.failed(status.handle(), place('B'), 'unknown-component', 'No B');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenCalledWith(HOST_MESSAGES.slotFailureLog, expect.objectContaining({ component: 'A' }));
    spy.mockRestore();
  });
});

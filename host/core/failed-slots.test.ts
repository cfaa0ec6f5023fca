import { FailedSlots } from './failed-slots';
import { SlotStatus, type SlotPlace } from './slot-status';

const place = (component: string): SlotPlace => ({
  page: '/',
  location: 'header-banner',
  index: 0,
  component,
  remote: null,
});

describe('FailedSlots (a view of the slot status)', () => {
  it('lists the failed slots on the page, following failures, recoveries and unmounts', () => {
    const status = new SlotStatus();
    const failedSlots = new FailedSlots(status);
    const listener = jest.fn();
    failedSlots.subscribe(listener);
    const a = status.handle();
    const b = status.handle();
    const leaveA = status.enter(a, place('A'));
    status.enter(b, place('B'));
    expect(failedSlots.snapshot()).toEqual([]);

    status.failed(a, place('A'), 'load-error', 'chunk');
    status.failed(b, place('B'), 'unknown-component', 'No B');
    expect(failedSlots.snapshot().map((slot) => [slot.component, slot.failure.kind])).toEqual([
      ['A', 'load-error'],
      ['B', 'unknown-component'],
    ]);
    status.loading(b, place('B'));
    status.rendered(b, place('B'));
    expect(failedSlots.snapshot().map((slot) => slot.component)).toEqual(['A']);
    leaveA();
    expect(failedSlots.snapshot()).toEqual([]);
    // A failed, B failed, B loading again, A left: rendering B changed nothing in the list.
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('keeps the same list object while the failed slots stay the same', () => {
    const status = new SlotStatus();
    const failedSlots = new FailedSlots(status);
    const a = status.handle();
    status.enter(a, place('A'));
    status.failed(a, place('A'), 'render-error', 'broke');
    const list = failedSlots.snapshot();
    expect(Object.isFrozen(list)).toBe(true);
    status.enter(status.handle(), place('B'));
    expect(failedSlots.snapshot()).toBe(list);
  });

  it("leaves out the failures a location's fallback covers, until a slot there loads or the fallback goes", () => {
    const status = new SlotStatus();
    const failedSlots = new FailedSlots(status);
    const switcher = (component: string): SlotPlace => ({ ...place(component), location: 'tenant-switcher' });
    const a = status.handle();
    const banner = status.handle();
    status.enter(a, switcher('TenantSwitcher'));
    status.enter(banner, place('Banner'));
    const fallbackGone = failedSlots.withFallback('tenant-switcher');
    status.failed(a, switcher('TenantSwitcher'), 'remote-unavailable', 'down');
    status.failed(banner, place('Banner'), 'load-error', 'chunk');
    // The slot status keeps both, for the inspector; only the banner left a gap.
    expect(status.snapshot().map((slot) => slot.state)).toEqual(['failed', 'failed']);
    expect(failedSlots.snapshot().map((slot) => slot.component)).toEqual(['Banner']);

    // A second slot at the location loading: the fallback is not shown, so the failure counts.
    const b = status.handle();
    const leaveB = status.enter(b, switcher('Other'));
    expect(failedSlots.snapshot().map((slot) => slot.component)).toEqual(['TenantSwitcher', 'Banner']);
    leaveB();
    expect(failedSlots.snapshot().map((slot) => slot.component)).toEqual(['Banner']);

    fallbackGone();
    expect(failedSlots.snapshot().map((slot) => slot.component)).toEqual(['TenantSwitcher', 'Banner']);
  });
});

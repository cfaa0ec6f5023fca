import { FakeBroadcastChannel } from '../../testing/host/fake-broadcast-channel';
import { openSessionBroadcast, SESSION_BROADCAST_NAME } from './session-broadcast';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('openSessionBroadcast', () => {
  it('tells the other tabs through a BroadcastChannel, not the tab that announces', async () => {
    const uninstall = FakeBroadcastChannel.install();
    try {
      const heardHere = jest.fn();
      const heardThere = jest.fn();
      const here = openSessionBroadcast(window, heardHere);
      const there = openSessionBroadcast(window, heardThere);
      here.announce();
      await settle();
      expect(heardThere).toHaveBeenCalledTimes(1);
      expect(heardHere).not.toHaveBeenCalled();

      there.close();
      here.announce();
      await settle();
      expect(heardThere).toHaveBeenCalledTimes(1);
      here.close();
    } finally {
      uninstall();
    }
  });

  it('falls back on localStorage where there is no BroadcastChannel: a new value each time, heard by storage events', () => {
    const heard = jest.fn();
    const line = openSessionBroadcast(window, heard);
    try {
      line.announce();
      const first = window.localStorage.getItem(SESSION_BROADCAST_NAME);
      line.announce();
      expect(window.localStorage.getItem(SESSION_BROADCAST_NAME)).not.toBe(first);

      // The browser gives the event to the other tabs; here it is dispatched as one of them would receive it.
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_BROADCAST_NAME, newValue: 'x' }));
      window.dispatchEvent(new StorageEvent('storage', { key: 'something else', newValue: 'x' }));
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_BROADCAST_NAME, newValue: null }));
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      line.close();
    }
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_BROADCAST_NAME, newValue: 'y' }));
    expect(heard).toHaveBeenCalledTimes(1);
  });
});

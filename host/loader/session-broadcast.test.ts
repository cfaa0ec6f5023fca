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

  it("carries why the session ended, when the announcing tab says it, and nothing else of another tab's message", async () => {
    const uninstall = FakeBroadcastChannel.install();
    try {
      const heard = jest.fn();
      const here = openSessionBroadcast(window, jest.fn());
      const there = openSessionBroadcast(window, heard);
      here.announce({ cause: 'idle', idleTimeoutMs: 600_000 });
      here.announce();
      await settle();
      expect(heard.mock.calls).toEqual([[{ cause: 'idle', idleTimeoutMs: 600_000 }], [null]]);

      // What a tab of another version of the host may send: a bare time (before), a cause this one does not know.
      const channel = new BroadcastChannel(SESSION_BROADCAST_NAME);
      channel.postMessage(Date.now());
      channel.postMessage({ ended: { cause: 'stolen' } });
      channel.postMessage({ ended: { cause: 'idle', idleTimeoutMs: -1 } });
      await settle();
      expect(heard.mock.calls.slice(2)).toEqual([[null], [null], [null]]);
      channel.close();
      here.close();
      there.close();
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
      expect(heard.mock.calls).toEqual([[null]]);

      // Why it ended travels in the value written.
      line.announce({ cause: 'signed-out-elsewhere' });
      const written = window.localStorage.getItem(SESSION_BROADCAST_NAME);
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_BROADCAST_NAME, newValue: written }));
      expect(heard.mock.calls[1]).toEqual([{ cause: 'signed-out-elsewhere' }]);
    } finally {
      line.close();
    }
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_BROADCAST_NAME, newValue: 'y' }));
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

import type { RemoteDescriptor } from '../../shared';
import { reloadOnRemoteRebuilds, type BuildEventSource } from './remote-live-reload';

function fakeSources() {
  const opened: Array<{ url: string; listeners: Array<() => void>; closed: boolean }> = [];
  const open = (url: string): BuildEventSource => {
    const source = { url, listeners: [] as Array<() => void>, closed: false };
    opened.push(source);
    return {
      addEventListener: (_type, listener) => source.listeners.push(listener),
      close: () => {
        source.closed = true;
      },
    };
  };
  return { opened, open };
}

const remote = (name: string, devEvents?: string): RemoteDescriptor => ({
  name,
  entry: `http://127.0.0.1:4100/${name}/mf-manifest.json`,
  components: ['Hello'],
  formComponents: [],
  ...(devEvents ? { devEvents } : {}),
});

describe('reloadOnRemoteRebuilds', () => {
  it('listens to each development remote once and reloads the page when one announces a build', () => {
    const { opened, open } = fakeSources();
    const reload = jest.fn();
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const stop = reloadOnRemoteRebuilds(
      [
        remote('a', 'http://127.0.0.1:4100/__slots_dev/events'),
        remote('b'),
        remote('c', 'http://127.0.0.1:4100/__slots_dev/events'),
      ],
      { open, reload },
    );
    expect(opened.map((source) => source.url)).toEqual(['http://127.0.0.1:4100/__slots_dev/events']);
    expect(reload).not.toHaveBeenCalled();
    opened[0]!.listeners.forEach((listener) => listener());
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
    expect(opened[0]!.closed).toBe(true);
  });

  it('opens nothing for remotes without development events (every remote of a production server)', () => {
    const { opened, open } = fakeSources();
    reloadOnRemoteRebuilds([remote('a'), remote('b')], { open, reload: jest.fn() });
    expect(opened).toEqual([]);
  });
});

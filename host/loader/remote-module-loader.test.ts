import { createInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '../../shared';
import {
  fakeContainer,
  fakeManifest,
  fakeContainersPlugin,
  uniqueName,
  useFederationTestEnvironment,
  TestResponse,
  type FakeContainer,
} from '../../testing/host/fake-remote';
import type { FallbackRequest } from './reliability-plugin';
import { createRemoteModuleLoader, type LoadedModule, type RemoteModuleLoader } from './remote-module-loader';

useFederationTestEnvironment();

function descriptor(name: string, components: string[], formComponents: string[] = []): RemoteDescriptor {
  return { name, entry: `/remotes/${name}/mf-manifest.json`, components, formComponents };
}

interface Setup {
  instance: ModuleFederation;
  modules: RemoteModuleLoader;
  fetchCalls: string[];
  containers: Map<string, FakeContainer>;
  warnings: string[];
  fallbacks: FallbackRequest[];
}

function setup(
  remotes: RemoteDescriptor[],
  options: { manifestStatus?: number; shared?: Parameters<typeof createInstance>[0]['shared'] } = {},
): Setup {
  const containers = new Map<string, FakeContainer>();
  const fetchCalls: string[] = [];
  const warnings: string[] = [];
  const fallbacks: FallbackRequest[] = [];
  const instance = createInstance({
    name: uniqueName('test_host'),
    remotes: [],
    plugins: [fakeContainersPlugin(containers)],
    // As the host build sets it (webpack.config.ts): the default would load every remote's entry to compare versions.
    ...(options.shared ? { shared: options.shared, shareStrategy: 'loaded-first' as const } : {}),
  });
  const modules = createRemoteModuleLoader({
    instance,
    reliability: {
      manifestTimeoutMs: 40,
      entryTimeoutMs: 40,
      retries: 0,
      fetch: async (url) => {
        fetchCalls.push(url);
        const remote = remotes.find((candidate) => url.endsWith(candidate.entry));
        if (!remote || options.manifestStatus) {
          return new TestResponse('{}', options.manifestStatus ?? 404) as unknown as Response;
        }
        return new TestResponse(JSON.stringify(fakeManifest(remote.name, remote.components))) as unknown as Response;
      },
      log: () => undefined,
      fallbackModule: (request) => {
        fallbacks.push(request);
        return { default: () => null, fallbackFor: request.component };
      },
    },
    warn: (message) => warnings.push(message),
  });
  return { instance, modules, fetchCalls, containers, warnings, fallbacks };
}

describe('remote module loader (real Module Federation runtime, fake containers)', () => {
  it('registers remotes with the runtime and names their components without fetching anything', () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const s = setup([]);
    const provided: string[][] = [];
    s.modules.onProvide((added) => provided.push(added.map((item) => `${item.remote}/${item.component}`)));

    const added = s.modules.registerRemotes([
      descriptor(a, ['Greeting', 'Slug'], ['Slug']),
      descriptor(b, ['Farewell']),
    ]);

    expect(added).toEqual([
      { remote: a, component: 'Greeting', formComponent: false },
      { remote: a, component: 'Slug', formComponent: true },
      { remote: b, component: 'Farewell', formComponent: false },
    ]);
    expect(provided).toEqual([[`${a}/Greeting`, `${a}/Slug`, `${b}/Farewell`]]);
    expect(s.instance.options.remotes.map((remote) => remote.name)).toEqual([a, b]);
    expect(s.modules.remoteOf('Farewell')).toBe(b);
    expect(s.modules.remoteOf('Nope')).toBeNull();
    expect(s.modules.entryOf('Slug')).toBe(`/remotes/${a}/mf-manifest.json`);
    expect(s.modules.entryOf('Nope')).toBeNull();
    expect(s.fetchCalls).toEqual([]);
  });

  it('keeps the first provider of a component and ignores a remote registered twice, saying so', () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const s = setup([]);
    s.modules.registerRemotes([descriptor(a, ['Greeting'])]);
    const added = s.modules.registerRemotes([descriptor(b, ['Greeting', 'Farewell']), descriptor(a, ['Other'])]);

    expect(added).toEqual([{ remote: b, component: 'Farewell', formComponent: false }]);
    expect(s.modules.remoteOf('Greeting')).toBe(a);
    expect(s.modules.remoteOf('Other')).toBeNull();
    expect(s.warnings).toEqual([
      `[slots] Remote "${a}" is already registered; the second registration is ignored.`,
      `[slots] Component "Greeting" is provided by "${a}" and "${b}"; "${a}" is kept.`,
    ]);
  });

  it('loads a module once per page, however many callers ask for it', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting', 'Farewell'])];
    const s = setup(remotes);
    const greeting = { Greeting: () => null };
    const container = fakeContainer({ Greeting: greeting, Farewell: { default: () => null } });
    s.containers.set(a, container);
    s.modules.registerRemotes(remotes);

    const first = s.modules.load(a, 'Greeting');
    expect(s.modules.load(a, 'Greeting')).toBe(first);
    expect(await first).toBe(greeting);
    expect(await s.modules.load(a, 'Greeting')).toBe(greeting);
    expect(container.get.mock.calls).toEqual([['./Greeting']]);
    expect(s.fetchCalls).toHaveLength(1);
  });

  it("contacts no remote before the host's own shared modules are loaded, so none can put its React first", async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting'])];
    let releaseReact: () => void = () => undefined;
    const reactLoaded = new Promise<void>((resolve) => {
      releaseReact = resolve;
    });
    const hostReact = { version: '19.2.0' };
    const s = setup(remotes, {
      shared: {
        react: {
          version: '19.2.0',
          get: () => reactLoaded.then(() => () => hostReact),
          shareConfig: { singleton: true, requiredVersion: '^19.0.0' },
        },
      },
    });
    const greeting = { default: () => null };
    s.containers.set(a, fakeContainer({ Greeting: greeting }));
    s.modules.registerRemotes(remotes);

    const load = s.modules.load(a, 'Greeting');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.fetchCalls).toEqual([]);
    releaseReact();
    expect(await load).toBe(greeting);
    expect(s.fetchCalls).toHaveLength(1);
    const scope = s.instance.shareScopeMap.default?.react?.['19.2.0'];
    expect(scope).toMatchObject({ from: s.instance.name, loaded: true });
  });

  it('prefetches the named components it knows, skipping the others, and nothing waits for it', async () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const remotes = [descriptor(a, ['Greeting', 'Farewell']), descriptor(b, ['Timeline'])];
    const s = setup(remotes);
    const containerA = fakeContainer({ Greeting: { default: () => null }, Farewell: { default: () => null } });
    const containerB = fakeContainer({ Timeline: { default: () => null } });
    s.containers.set(a, containerA);
    s.containers.set(b, containerB);
    s.modules.registerRemotes(remotes);
    const loaded: string[] = [];
    s.modules.onLoad((done) => loaded.push(done.component));

    s.modules.prefetch(['Greeting', 'Unknown', 'Greeting']);
    await s.modules.load(a, 'Greeting');

    expect(loaded).toEqual(['Greeting']);
    expect(containerA.get.mock.calls).toEqual([['./Greeting']]);
    expect(containerB.get).not.toHaveBeenCalled();
    expect(s.fetchCalls).toEqual([`http://localhost/remotes/${a}/mf-manifest.json`]);
  });

  it('tells load listeners first, and replays earlier loads to a late listener', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting', 'Slug'], ['Slug'])];
    const s = setup(remotes);
    const greeting = { default: () => null };
    s.containers.set(a, fakeContainer({ Greeting: greeting, Slug: { default: () => null } }));
    s.modules.registerRemotes(remotes);
    const order: string[] = [];
    s.modules.onLoad((done) => order.push(`listener ${done.component}`));

    const request = s.modules.load(a, 'Greeting');
    const consumer = request.then(() => order.push('consumer'));
    await consumer;
    expect(order).toEqual(['listener Greeting', 'consumer']);

    await s.modules.load(a, 'Slug');
    const late: LoadedModule[] = [];
    s.modules.onLoad((done) => late.push(done));
    expect(late.map((done) => [done.component, done.formComponent])).toEqual([
      ['Greeting', false],
      ['Slug', true],
    ]);
    expect(late[0]?.module).toBe(greeting);
  });

  it('keeps a failing listener from failing the load', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting'])];
    const s = setup(remotes);
    const greeting = { default: () => null };
    s.containers.set(a, fakeContainer({ Greeting: greeting }));
    s.modules.registerRemotes(remotes);
    s.modules.onLoad(() => {
      throw new Error('listener bug');
    });

    expect(await s.modules.load(a, 'Greeting')).toBe(greeting);
    expect(s.warnings).toEqual(['[slots] A listener of loaded remote modules failed: listener bug']);
  });

  it('loads a remote registered by its hashed entry script (the boot data) without any manifest request', async () => {
    const a = uniqueName('team_a');
    const remotes = [{ ...descriptor(a, ['Greeting']), entry: `/remotes/${a}/remoteEntry.0123abcd.js` }];
    const s = setup(remotes);
    const greeting = { default: () => null };
    const container = fakeContainer({ Greeting: greeting });
    s.containers.set(a, container);
    s.modules.registerRemotes(remotes);

    expect(await s.modules.load(a, 'Greeting')).toBe(greeting);
    expect(container.init).toHaveBeenCalledTimes(1);
    expect(s.fetchCalls).toEqual([]);
  });

  it("fails only the slots of a remote whose hashed entry script is missing; another remote's load", async () => {
    const broken = uniqueName('team_broken');
    const working = uniqueName('team_working');
    // No fake container for `broken`: the runtime inserts its script, which never loads (a file gone with a rebuild).
    const remotes = [broken, working].map((name) => ({
      ...descriptor(name, name === broken ? ['Greeting'] : ['Farewell']),
      entry: `/remotes/${name}/remoteEntry.0123abcd.js`,
    }));
    const s = setup(remotes);
    const farewell = { default: () => null };
    s.containers.set(working, fakeContainer({ Farewell: farewell }));
    s.modules.registerRemotes(remotes);

    const [greeting, loadedFarewell] = await Promise.all([
      s.modules.load(broken, 'Greeting'),
      s.modules.load(working, 'Farewell'),
    ]);
    expect(greeting).toEqual({ default: expect.any(Function), fallbackFor: 'Greeting' });
    expect(loadedFarewell).toBe(farewell);
    expect(s.modules.isQuarantined(broken)).toBe(true);
    expect(s.modules.isQuarantined(working)).toBe(false);
    expect(s.fallbacks.map((request) => [request.remote, request.component, request.quarantined])).toEqual([
      [broken, 'Greeting', true],
    ]);
    expect(s.fetchCalls).toEqual([]);
  });

  it('resolves an unloadable remote to its fallback module, then answers from quarantine without a request', async () => {
    const broken = uniqueName('team_broken');
    const remotes = [descriptor(broken, ['Greeting', 'Farewell'])];
    const s = setup(remotes, { manifestStatus: 500 });
    s.modules.registerRemotes(remotes);

    expect(await s.modules.load(broken, 'Greeting')).toEqual({
      default: expect.any(Function),
      fallbackFor: 'Greeting',
    });
    expect(s.modules.isQuarantined(broken)).toBe(true);
    expect(s.fetchCalls).toHaveLength(1);

    expect(await s.modules.load(broken, 'Farewell')).toEqual({
      default: expect.any(Function),
      fallbackFor: 'Farewell',
    });
    expect(s.fetchCalls).toHaveLength(1);
    expect(s.fallbacks.map((request) => [request.component, request.quarantined])).toEqual([
      ['Greeting', true],
      ['Farewell', true],
    ]);
  });
});

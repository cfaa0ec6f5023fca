import { createInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { useState } from 'react';
import type { RemoteDescriptor, SlotMap } from '../../shared';
import { createFakeApi } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import {
  fakeContainer,
  fakeManifest,
  fakeContainersPlugin,
  uniqueName,
  useFederationTestEnvironment,
  TestResponse,
  type FakeContainer,
} from '../../testing/host/fake-remote';
import { AppSlotRenderer } from './app-slot-renderer';
import { ComponentRegistry } from './component-registry';
import { HOST_MESSAGES } from '../loader/messages';
import { createTestSlotSource } from '../../testing/host/slot-source';
import type { SlotFailure } from './log-slot-failures';
import { SlotLoadError } from './slot-boundary';
import { createSlotStatus, SlotRuntimeProvider } from './slot-runtime';
import { SlotSourceProvider } from './slot-source-provider';
import { createFallbackModule } from './fallback-module';
import { remoteReleaseTags } from './remote-release-tags';
import { connectRegistries, loadComponent } from './connect-registries';
import type { RemoteFailure } from '../loader/reliability-plugin';
import { createRemoteModuleLoader, type RemoteModuleLoader } from '../loader/remote-module-loader';

useFederationTestEnvironment();

function Greeting({ name }: { name: string }) {
  // A hook: proves the component runs against the host's React.
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Hello {name} ({count})
    </button>
  );
}
function Farewell() {
  return <p>Goodbye</p>;
}

type ManifestAnswer = 'ok' | 'hang' | 500;

interface Setup {
  instance: ModuleFederation;
  modules: RemoteModuleLoader;
  slotRegistry: ComponentRegistry;
  globalRegistry: ComponentRegistry;
  fetchCalls: string[];
  remoteLog: RemoteFailure[];
  scriptsCreated: string[];
  /** Remote name -> fake container (remotes without one load their remoteEntry.js as a real script). */
  containers: Map<string, FakeContainer>;
  manifests: Map<string, ManifestAnswer>;
}

function setup(
  remotes: RemoteDescriptor[],
  options: { manifestTimeoutMs?: number; entryTimeoutMs?: number } = {},
): Setup {
  const containers = new Map<string, FakeContainer>();
  const manifests = new Map<string, ManifestAnswer>();
  const fetchCalls: string[] = [];
  const scriptsCreated: string[] = [];
  const remoteLog: RemoteFailure[] = [];

  // The network edge: manifests by URL, answered, failing, or hanging until the plugin's AbortSignal fires.
  const fetchManifest = (url: string, init: RequestInit): Promise<Response> => {
    fetchCalls.push(url);
    const remote = remotes.find((candidate) => url.endsWith(candidate.entry));
    const answer = remote ? (manifests.get(remote.name) ?? 'ok') : 500;
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new Error('aborted')));
      });
    }
    if (answer === 500 || !remote) return Promise.resolve(new TestResponse('{"error":{}}', 500) as unknown as Response);
    return Promise.resolve(
      new TestResponse(JSON.stringify(fakeManifest(remote.name, remote.components))) as unknown as Response,
    );
  };

  // Fake containers instead of remoteEntry.js scripts; the scripts the runtime would insert are recorded.
  const containerPlugin = fakeContainersPlugin(containers, {
    createScript: ({ url }) => {
      scriptsCreated.push(url);
      return undefined;
    },
  });

  const instance = createInstance({
    name: uniqueName('test_host'),
    remotes: [],
    shared: {
      react: {
        version: React.version,
        scope: 'default',
        lib: () => React,
        shareConfig: { singleton: true, requiredVersion: '^19.2.0' },
      },
    },
    // As the host build sets it (webpack.config.ts): the default would load every remote's entry to compare versions.
    shareStrategy: 'loaded-first',
    plugins: [containerPlugin],
  });
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  const globalRegistry = new ComponentRegistry('GlobalComponentRegistry');
  const modules = createRemoteModuleLoader({
    instance,
    reliability: {
      manifestTimeoutMs: options.manifestTimeoutMs ?? 40,
      entryTimeoutMs: options.entryTimeoutMs ?? 40,
      retries: 1,
      fetch: fetchManifest,
      log: (_message, failure) => remoteLog.push(failure),
      fallbackModule: createFallbackModule,
    },
    warn: () => undefined,
  });
  connectRegistries(modules, { slotRegistry, globalRegistry });
  return {
    instance,
    modules,
    slotRegistry,
    globalRegistry,
    fetchCalls,
    remoteLog,
    scriptsCreated,
    containers,
    manifests,
  };
}

function descriptor(name: string, components: string[], formComponents: string[] = []): RemoteDescriptor {
  return { name, entry: `/remotes/${name}/mf-manifest.json`, components, formComponents };
}

function renderSlots(s: Setup, slots: SlotMap, logged: SlotFailure[] = []) {
  const api = createFakeApi({ 'GET /slots': { body: { slots } } });
  return renderWithSlotBoundaries(
    <SlotRuntimeProvider
      runtime={{
        slotRegistry: s.slotRegistry,
        globalRegistry: s.globalRegistry,
        remoteOf: s.modules.remoteOf,
        ...createSlotStatus({ log: (_message, failure) => logged.push(failure) }),
        showFailures: true,
      }}
    >
      <SlotSourceProvider source={createTestSlotSource(api)}>
        {Object.keys(slots).map((location) => (
          <AppSlotRenderer key={location} location={location as keyof SlotMap} />
        ))}
      </SlotSourceProvider>
    </SlotRuntimeProvider>,
  );
}

describe('remote modules in the registries (real Module Federation runtime, fake containers)', () => {
  it('registers remotes and a lazy loader per component without fetching anything', () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const s = setup([descriptor(a, ['Greeting', 'SlugPreview'], ['SlugPreview']), descriptor(b, ['Farewell'])]);
    s.modules.registerRemotes([
      descriptor(a, ['Greeting', 'SlugPreview'], ['SlugPreview']),
      descriptor(b, ['Farewell']),
    ]);

    expect(s.instance.options.remotes.map((remote) => remote.name)).toEqual([a, b]);
    expect(s.slotRegistry.names()).toEqual(['Greeting', 'SlugPreview', 'Farewell']);
    expect(s.globalRegistry.names()).toEqual(['SlugPreview']);
    expect(s.globalRegistry.get('SlugPreview')).toBe(s.slotRegistry.get('SlugPreview'));
    expect(s.modules.remoteOf('Farewell')).toBe(b);
    expect(s.modules.remoteOf('Nope')).toBeNull();
    expect(s.fetchCalls).toEqual([]);
    expect(s.scriptsCreated).toEqual([]);
  });

  it('keeps the signed release of each remote served from a release, for its slot events', () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const s = setup([]);
    s.modules.registerRemotes([
      { ...descriptor(a, ['Released']), releaseTag: '2.0.0.c2lnbmVk' },
      descriptor(b, ['Configured']),
    ]);
    expect(remoteReleaseTags.get(a)).toBe('2.0.0.c2lnbmVk');
    expect(remoteReleaseTags.has(b)).toBe(false);
  });

  it('fetches a remote only when a slot on the page needs one of its components', async () => {
    const a = uniqueName('team_a');
    const b = uniqueName('team_b');
    const remotes = [descriptor(a, ['Greeting']), descriptor(b, ['Farewell'])];
    const s = setup(remotes);
    const containerA = fakeContainer({ Greeting: { Greeting } });
    const containerB = fakeContainer({ Farewell: { default: Farewell } });
    s.containers.set(a, containerA);
    s.containers.set(b, containerB);
    s.modules.registerRemotes(remotes);

    renderSlots(s, { 'header-banner': [{ component: 'Greeting', props: { name: 'Ada' } }] });
    const button = await screen.findByRole('button', { name: 'Hello Ada (0)' });
    fireEvent.click(button);
    await screen.findByRole('button', { name: 'Hello Ada (1)' });

    expect(s.fetchCalls).toEqual([`http://localhost/remotes/${a}/mf-manifest.json`]);
    expect(containerA.get).toHaveBeenCalledWith('./Greeting');
    expect(containerA.init).toHaveBeenCalledTimes(1);
    expect(containerB.get).not.toHaveBeenCalled();
    expect(s.modules.isQuarantined(a)).toBe(false);
  });

  it('accepts a default export, and names the module when it exports no component', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Farewell', 'Empty', 'NotAComponent'])];
    const s = setup(remotes);
    s.containers.set(
      a,
      fakeContainer({ Farewell: { default: Farewell }, Empty: {}, NotAComponent: { NotAComponent: 'text' } }),
    );
    s.modules.registerRemotes(remotes);

    expect(await loadComponent(s.modules, a, 'Farewell')).toBe(Farewell);
    await expect(loadComponent(s.modules, a, 'Empty')).rejects.toThrow(SlotLoadError);
    await expect(loadComponent(s.modules, a, 'Empty')).rejects.toThrow(
      `Federated module "${a}/Empty" has no React component to render`,
    );
    await expect(loadComponent(s.modules, a, 'NotAComponent')).rejects.toThrow(/exporting "NotAComponent"/);

    const logged: SlotFailure[] = [];
    renderSlots(
      s,
      {
        'global-before-content': [
          { component: 'Empty', props: {} },
          { component: 'Farewell', props: {} },
        ],
      },
      logged,
    );
    await screen.findByText('Goodbye');
    await waitFor(() => expect(logged).toHaveLength(1));
    expect(logged[0]).toMatchObject({ component: 'Empty', remote: a, kind: 'load-error' });
    expect(logged[0]?.error).toContain(`"${a}/Empty"`);
  });

  it('times out a hanging manifest, retries once, falls back, then quarantines the remote', async () => {
    const slow = uniqueName('team_slow');
    const remotes = [descriptor(slow, ['Greeting', 'Farewell'])];
    const s = setup(remotes, { manifestTimeoutMs: 40 });
    s.manifests.set(slow, 'hang');
    s.modules.registerRemotes(remotes);

    const started = Date.now();
    const Fallback = await loadComponent(s.modules, slow, 'Greeting');
    expect(Date.now() - started).toBeGreaterThanOrEqual(75); // two attempts of 40 ms
    expect(s.fetchCalls).toHaveLength(2);
    expect(s.modules.isQuarantined(slow)).toBe(true);
    expect(s.remoteLog).toEqual([
      {
        remote: slow,
        stage: 'manifest',
        url: `http://localhost/remotes/${slow}/mf-manifest.json`,
        attempts: 2,
        error: 'timed out after 40 ms',
      },
    ]);

    // Quarantined: another component of the same remote falls back at once, with no request at all.
    await loadComponent(s.modules, slow, 'Farewell');
    expect(s.fetchCalls).toHaveLength(2);
    expect(s.remoteLog).toHaveLength(1);

    // The fallback component renders the failure placeholder in the slot, logged once with the slot's location.
    const logged: SlotFailure[] = [];
    renderSlots(s, { 'header-banner': [{ component: 'Greeting', props: { name: 'x' } }] }, logged);
    const note = await screen.findByRole('note');
    await waitFor(() =>
      expect(note.closest('[data-slot-component="Greeting"]')?.getAttribute('data-slot-failed')).toBe(
        'remote-unavailable',
      ),
    );
    expect(note.textContent).toContain(`Remote "${slow}" could not be loaded`);
    expect(note.textContent).toContain('timed out after 40 ms');
    await waitFor(() => expect(logged).toHaveLength(1));
    expect(logged[0]).toMatchObject({
      location: 'header-banner',
      component: 'Greeting',
      remote: slow,
      kind: 'remote-unavailable',
    });
    expect(s.fetchCalls).toHaveLength(2);
    expect(typeof Fallback).toBe('function');
  });

  it('retries a manifest answered with an HTTP error once, then falls back', async () => {
    const broken = uniqueName('team_broken');
    const remotes = [descriptor(broken, ['Greeting'])];
    const s = setup(remotes);
    s.manifests.set(broken, 500);
    s.modules.registerRemotes(remotes);

    await loadComponent(s.modules, broken, 'Greeting');
    expect(s.fetchCalls).toHaveLength(2);
    expect(s.remoteLog).toEqual([
      expect.objectContaining({ remote: broken, stage: 'manifest', attempts: 2, error: 'HTTP 500' }),
    ]);
    expect(s.modules.isQuarantined(broken)).toBe(true);
  });

  it('times out a remoteEntry.js that never loads, retries once, falls back and quarantines', async () => {
    const stuck = uniqueName('team_stuck');
    const remotes = [descriptor(stuck, ['Greeting', 'Farewell'])];
    const s = setup(remotes, { entryTimeoutMs: 40 });
    // No fake container: the runtime inserts a real <script>, which never loads here.
    s.modules.registerRemotes(remotes);

    const started = Date.now();
    await loadComponent(s.modules, stuck, 'Greeting');
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(s.scriptsCreated).toEqual([
      `http://localhost/remotes/${stuck}/remoteEntry.js`,
      `http://localhost/remotes/${stuck}/remoteEntry.js`,
    ]);
    expect(s.remoteLog).toHaveLength(1);
    expect(s.remoteLog[0]).toMatchObject({ remote: stuck, stage: 'entry', attempts: 2 });
    expect(s.remoteLog[0]?.error).toMatch(/timed out/);
    expect(s.modules.isQuarantined(stuck)).toBe(true);
    expect(document.querySelectorAll(`script[src*="${stuck}"]`)).toHaveLength(0);

    await loadComponent(s.modules, stuck, 'Farewell');
    expect(s.scriptsCreated).toHaveLength(2);
    expect(s.fetchCalls).toHaveLength(1);
  });

  it('falls back for one failing module without quarantining a remote that answers', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting', 'Farewell'])];
    const s = setup(remotes);
    s.containers.set(a, fakeContainer({ Greeting: new Error('factory exploded'), Farewell: { Farewell } }));
    s.modules.registerRemotes(remotes);

    const logged: SlotFailure[] = [];
    renderSlots(
      s,
      {
        'global-after-content': [
          { component: 'Greeting', props: {} },
          { component: 'Farewell', props: {} },
        ],
      },
      logged,
    );
    await screen.findByText('Goodbye');
    const failed = document.querySelector('[data-slot-component="Greeting"]') as HTMLElement;
    await waitFor(() => expect(failed.getAttribute('data-slot-failed')).toBe('load-error'));
    expect(within(failed).getByRole('note').textContent).toContain('factory exploded');
    expect(s.modules.isQuarantined(a)).toBe(false);
    expect(s.remoteLog).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      component: 'Greeting',
      remote: a,
      error: expect.stringContaining('factory exploded'),
    });
  });

  it('shows a remote-unavailable slot as nothing in production', async () => {
    const slow = uniqueName('team_slow');
    const remotes = [descriptor(slow, ['Greeting'])];
    const s = setup(remotes, { manifestTimeoutMs: 10 });
    s.manifests.set(slow, 'hang');
    s.modules.registerRemotes(remotes);
    const api = createFakeApi({
      'GET /slots': { body: { slots: { 'header-banner': [{ component: 'Greeting', props: {} }] } } },
    });
    const logged: SlotFailure[] = [];
    render(
      <SlotRuntimeProvider
        runtime={{
          slotRegistry: s.slotRegistry,
          remoteOf: s.modules.remoteOf,
          ...createSlotStatus({ log: (_message, failure) => logged.push(failure) }),
          showFailures: false,
        }}
      >
        <SlotSourceProvider source={createTestSlotSource(api)}>
          <AppSlotRenderer location="header-banner" />
        </SlotSourceProvider>
      </SlotRuntimeProvider>,
    );
    await waitFor(() => expect(logged).toHaveLength(1));
    const wrapper = document.querySelector('[data-slot-component="Greeting"]') as HTMLElement;
    expect(wrapper.hidden).toBe(true);
    expect(wrapper.textContent).toBe('');
    expect(HOST_MESSAGES.remoteFailureLog).toMatch(/could not be loaded/);
  });
});

describe('remote modules in the registries: loaded components replace their lazy stand-ins', () => {
  it('puts the loaded component itself into both registries, so a slot rendered after the load never suspends', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting', 'SlugPreview'], ['SlugPreview'])];
    const s = setup(remotes);
    s.containers.set(a, fakeContainer({ Greeting: { Greeting }, SlugPreview: { default: Farewell } }));
    s.modules.registerRemotes(remotes);
    const lazyGreeting = s.slotRegistry.get('Greeting');

    expect(await loadComponent(s.modules, a, 'Greeting')).toBe(Greeting);
    expect(s.slotRegistry.get('Greeting')).toBe(Greeting);
    expect(s.slotRegistry.get('Greeting')).not.toBe(lazyGreeting);
    await loadComponent(s.modules, a, 'SlugPreview');
    expect(s.slotRegistry.get('SlugPreview')).toBe(Farewell);
    expect(s.globalRegistry.get('SlugPreview')).toBe(Farewell);

    // Rendered synchronously, no Suspense fallback: the component is there in the very first commit.
    const slots: SlotMap = { 'header-banner': [{ component: 'Greeting', props: { name: 'Ada' } }] };
    const api = createFakeApi({ 'GET /slots': { body: { slots } } });
    // The sign-in page's early GET /slots answers the slot source's first load.
    const source = createTestSlotSource(api, { pathname: '/login' });
    const loaded = source.earlySlots;
    await act(async () => {
      render(
        <SlotRuntimeProvider
          runtime={{ slotRegistry: s.slotRegistry, remoteOf: s.modules.remoteOf, showFailures: true }}
        >
          <SlotSourceProvider source={source}>
            <AppSlotRenderer location="header-banner" />
          </SlotSourceProvider>
        </SlotRuntimeProvider>,
      );
      await loaded;
    });
    expect(screen.getByRole('button', { name: 'Hello Ada (0)' })).toBeTruthy();
    expect(document.querySelector('.slot-loading')).toBeNull();
  });

  it('reveals a slot that was waiting for its module as soon as the module arrives', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting'])];
    const s = setup(remotes);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const container = fakeContainer({ Greeting: { Greeting } });
    const get = container.get.getMockImplementation();
    container.get.mockImplementation(async (expose: string) => {
      await gate;
      return get ? get(expose) : () => undefined;
    });
    s.containers.set(a, container);
    s.modules.registerRemotes(remotes);

    renderSlots(s, { 'header-banner': [{ component: 'Greeting', props: { name: 'Ada' } }] });
    await waitFor(() => expect(document.querySelector('.slot-loading')).not.toBeNull());
    // React holds back a Suspense boundary's own retry for 300 ms after its fallback showed (a timer); the registry
    // update that brings the loaded component is not held back. So the module's promises are let settle, and the
    // renders they cause flushed, without waiting for any time: the slot must be there already. (Measuring the time
    // instead failed on a busy machine, 405 ms for a bound of 250.)
    await act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByRole('button', { name: 'Hello Ada (0)' })).toBeTruthy();
  });

  it('takes over a module loader made earlier, with its remotes and the modules it already loaded', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting', 'Farewell', 'SlugPreview'], ['SlugPreview'])];
    const containers = new Map<string, FakeContainer>();
    const container = fakeContainer({ Greeting: { Greeting }, Farewell: { Farewell }, SlugPreview: { Farewell } });
    containers.set(a, container);
    const instance = createInstance({
      name: uniqueName('test_host'),
      remotes: [],
      plugins: [fakeContainersPlugin(containers)],
    });
    const modules = createRemoteModuleLoader({
      instance,
      reliability: {
        fetch: async (url) =>
          new TestResponse(JSON.stringify(fakeManifest(a, remotes[0]?.components ?? []))) as unknown as Response,
        fallbackModule: createFallbackModule,
        log: () => undefined,
      },
    });
    modules.registerRemotes(remotes);
    await modules.load(a, 'Greeting');

    const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
    const globalRegistry = new ComponentRegistry('GlobalComponentRegistry');
    connectRegistries(modules, { slotRegistry, globalRegistry });

    expect(slotRegistry.names()).toEqual(['Greeting', 'Farewell', 'SlugPreview']);
    expect(slotRegistry.get('Greeting')).toBe(Greeting);
    expect(slotRegistry.get('Farewell')).not.toBe(Farewell);
    expect(globalRegistry.names()).toEqual(['SlugPreview']);
    expect(modules.remoteOf('Farewell')).toBe(a);
    expect(instance.options.plugins).toContain(modules.plugin);

    expect(await loadComponent(modules, a, 'Farewell')).toBe(Farewell);
    expect(slotRegistry.get('Farewell')).toBe(Farewell);
    expect(container.get.mock.calls).toEqual([['./Greeting'], ['./Farewell']]);
  });

  it('leaves a name alone that was registered again after its remote provided it', async () => {
    const a = uniqueName('team_a');
    const remotes = [descriptor(a, ['Greeting'])];
    const s = setup(remotes);
    s.containers.set(a, fakeContainer({ Greeting: { Greeting } }));
    s.modules.registerRemotes(remotes);
    s.slotRegistry.register('Greeting', Farewell);

    await loadComponent(s.modules, a, 'Greeting');
    expect(s.slotRegistry.get('Greeting')).toBe(Farewell);
  });
});

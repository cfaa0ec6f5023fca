import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import type { ResourceActionSlotProps, SlotMap } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi, type FakeResponse } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { createTestSlotSource } from '../../testing/host/slot-source';
import type { SlotSource } from '../loader/slot-source';
import { AppSlotRenderer } from './app-slot-renderer';
import { ComponentRegistry } from './component-registry';
import { HOST_MESSAGES } from '../loader/messages';
import type { SlotFailure } from './log-slot-failures';
import { createSlotStatus, SlotRuntimeProvider, type SlotRuntime } from './slot-runtime';
import { SLOT_LOAD_TIMEOUT_MS } from './slot-item';
import { isTimeout } from './slot-status';
import { slotLoadEventOf } from './send-slot-events';
import type { SlotLoadEvent } from '../../shared';
import { SlotSourceProvider, useSession, useSlotData } from './slot-source-provider';

function Notice({ title, text }: { title: string; text: string }) {
  return (
    <section>
      <h2>{title}</h2>
      <p>{text}</p>
    </section>
  );
}
function Callout({ tone, children }: { tone: string; children?: ReactNode }) {
  return <aside data-tone={tone}>{children}</aside>;
}
function WelcomeCard({ title }: { title: string }) {
  return <strong>{title}</strong>;
}
function ContextProbe(props: ResourceActionSlotProps<{ label?: string }>) {
  return <output data-testid="probe">{JSON.stringify(props)}</output>;
}
function Thrower(): ReactNode {
  throw new Error('Thrower exploded while rendering');
}

interface Harness {
  api: FakeApi;
  registry: ComponentRegistry;
  logged: SlotFailure[];
  runtime: Partial<SlotRuntime>;
}

function harness(slots: SlotMap, options: { showFailures?: boolean; meta?: SlotMap } = {}): Harness {
  const api = createFakeApi({
    'GET /slots': { body: { slots } },
    'GET /meta': {
      body: {
        dashboards: [{ name: 'overview', label: 'Overview', cards: [{ title: 'Articles', value: 3 }] }],
        modules: [{ name: 'content', label: 'Content', resources: [{ name: 'articles', label: 'Articles' }] }],
        slots: options.meta ?? slots,
      },
    },
  });
  const registry = new ComponentRegistry('SlotComponentRegistry');
  registry.registerMany({ Notice, Callout, WelcomeCard, ContextProbe, Thrower });
  const logged: SlotFailure[] = [];
  const runtime: Partial<SlotRuntime> = {
    slotRegistry: registry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...createSlotStatus({ log: (_message, failure) => logged.push(failure) }),
    remoteOf: (component) => (component === 'Thrower' ? 'team_test' : null),
    showFailures: options.showFailures ?? true,
  };
  return { api, registry, logged, runtime };
}

function renderPage(h: Harness, children: ReactNode, authenticated = false) {
  const source = createTestSlotSource(h.api, { signedIn: authenticated });
  const page = (content: ReactNode = children) => (
    <SlotRuntimeProvider runtime={h.runtime}>
      <SlotSourceProvider source={source}>{content}</SlotSourceProvider>
    </SlotRuntimeProvider>
  );
  const view = renderWithSlotBoundaries(page());
  /** Signs in or out (when that changes anything) and renders `content`, or the same children again. */
  const rerenderAs = (signedIn: boolean, content?: ReactNode) => {
    const session = source.session.snapshot();
    act(() => {
      if (signedIn && session.status !== 'authenticated') void session.signIn({ username: 'admin', password: 'x' });
      if (!signedIn && session.status === 'authenticated') void session.signOut();
    });
    view.rerender(page(content));
  };
  return { ...view, source, rerenderAs };
}

/** Renders the slots of `location` over a slot source made by the test. */
function renderWithSource(h: Harness, source: SlotSource, children: ReactNode) {
  return render(
    <SlotRuntimeProvider runtime={h.runtime}>
      <SlotSourceProvider source={source}>{children}</SlotSourceProvider>
    </SlotRuntimeProvider>,
  );
}

const location = (name: string) => document.querySelector(`[data-slot-location="${name}"]`) as HTMLElement;

describe('AppSlotRenderer', () => {
  it('throws an instructive error when no SlotSourceProvider is above it', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<AppSlotRenderer location="header-banner" />)).toThrow(HOST_MESSAGES.slotDataProviderMissing);
    expect(HOST_MESSAGES.slotDataProviderMissing).toMatch(/outside <SlotSourceProvider>/);
    spy.mockRestore();
  });

  it('renders the slots of a location in order, each with its props, in a marked wrapper', async () => {
    const h = harness({
      'login-before-form': [
        { component: 'Notice', props: { title: 'First', text: 'one' } },
        { component: 'Notice', props: { title: 'Second', text: 'two' } },
      ],
    });
    renderPage(h, <AppSlotRenderer location="login-before-form" />);
    await screen.findByText('First');
    const wrapper = location('login-before-form');
    const items = wrapper.querySelectorAll('[data-slot-component]');
    expect([...items].map((item) => item.getAttribute('data-slot-component'))).toEqual(['Notice', 'Notice']);
    expect([...wrapper.querySelectorAll('h2')].map((heading) => heading.textContent)).toEqual(['First', 'Second']);
    expect(within(wrapper).getByText('two')).toBeTruthy();
  });

  it('takes slots from GET /slots when signed out: one request shared by every location', async () => {
    const h = harness({
      'login-before-form': [{ component: 'Notice', props: { title: 'Public', text: 'x' } }],
      'global-before-content': [{ component: 'Notice', props: { title: 'Global', text: 'y' } }],
    });
    renderPage(
      h,
      <>
        <AppSlotRenderer location="global-before-content" />
        <AppSlotRenderer location="login-before-form" />
        <AppSlotRenderer location="login-after-form" />
        <AppSlotRenderer location="header-banner" />
      </>,
    );
    await screen.findByText('Public');
    await screen.findByText('Global');
    expect(h.api.count('GET', '/slots')).toBe(1);
    expect(h.api.count('GET', '/meta')).toBe(0);
    // Besides the session's GET /me, one request.
    expect(h.api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /me', 'GET /slots']);
  });

  it('takes slots from GET /meta when signed in, and refetches once on sign-in and sign-out', async () => {
    const h = harness(
      { 'login-before-form': [{ component: 'Notice', props: { title: 'Public only', text: 'x' } }] },
      { meta: { 'dashboard-before-cards': [{ component: 'Notice', props: { title: 'Protected', text: 'y' } }] } },
    );
    const tree = (
      <>
        <AppSlotRenderer location="dashboard-before-cards" />
        <AppSlotRenderer location="login-before-form" />
      </>
    );
    const view = renderPage(h, tree, true);
    await screen.findByText('Protected');
    expect(h.api.count('GET', '/meta')).toBe(1);
    expect(h.api.count('GET', '/slots')).toBe(0);

    view.rerenderAs(false);
    // Signed out: protected slots disappear at once, before /slots answers.
    expect(screen.queryByText('Protected')).toBeNull();
    await screen.findByText('Public only');
    expect(h.api.count('GET', '/slots')).toBe(1);

    // Signed in again: still signed out, the public slots kept, until /meta answers; then its slots replace them at
    // once, with the session (nothing protected before, no public slot emptied meanwhile).
    let answerMeta = () => undefined as void;
    const meta = h.api.routes.get('GET /meta');
    h.api.routes.set('GET /meta', () => new Promise((resolve) => (answerMeta = () => resolve(meta as FakeResponse))));
    let signedIn: Promise<unknown> = Promise.resolve();
    act(() => {
      signedIn = view.source.session.signIn({ username: 'admin', password: 'x' });
    });
    await waitFor(() => expect(h.api.count('GET', '/meta')).toBe(2));
    expect(view.source.session.snapshot().status).toBe('anonymous');
    expect(screen.getByText('Public only')).toBeTruthy();
    await act(async () => {
      answerMeta();
      await signedIn;
    });
    expect(view.source.session.snapshot().status).toBe('authenticated');
    expect(screen.getByText('Protected')).toBeTruthy();
    expect(screen.queryByText('Public only')).toBeNull();
    expect(h.api.count('GET', '/meta')).toBe(2);
  });

  it('requests no slot data until it is known who is signed in', async () => {
    const h = harness({});
    h.api.routes.set('GET /me', () => new Promise(() => undefined));
    renderWithSource(h, createTestSlotSource(h.api), <AppSlotRenderer location="header-banner" />);
    await act(async () => undefined);
    expect(h.api.requests.map((request) => request.path)).toEqual(['/me']);
    expect(location('header-banner').getAttribute('aria-busy')).toBe('true');
  });

  it('requests no slot data until the remotes are registered', async () => {
    const h = harness({ 'header-banner': [{ component: 'Notice', props: { title: 'Late', text: '' } }] });
    let registered = () => undefined as void;
    const remotesReady = new Promise<void>((resolve) => (registered = resolve));
    renderWithSource(h, createTestSlotSource(h.api, { remotesReady }), <AppSlotRenderer location="header-banner" />);
    await act(async () => undefined);
    expect(h.api.count('GET', '/slots')).toBe(0);
    expect(location('header-banner').getAttribute('aria-busy')).toBe('true');
    await act(async () => registered());
    await screen.findByText('Late');
  });

  it('expires the session when GET /meta answers 401, telling the expiry listeners while still signed in', async () => {
    const h = harness({});
    h.api.routes.set('GET /meta', UNAUTHENTICATED);
    const source = createTestSlotSource(h.api, { signedIn: true });
    const statusAtExpiry: string[] = [];
    source.session.onExpire(() => statusAtExpiry.push(source.session.snapshot().status));
    function SessionStatus() {
      const { status, expired } = useSession();
      return <p>{`${status}${expired ? ' (expired)' : ''}`}</p>;
    }
    renderWithSource(
      h,
      source,
      <>
        <SessionStatus />
        <AppSlotRenderer location="dashboard-before-cards" />
      </>,
    );
    await screen.findByText('anonymous (expired)');
    expect(statusAtExpiry).toEqual(['authenticated']);
    // Signed out now: the public slots are asked for.
    await waitFor(() => expect(h.api.count('GET', '/slots')).toBe(1));
  });

  it('gives the context { resource, resourceId, record } to the two resource-action locations only', async () => {
    const probe = { component: 'ContextProbe', props: { label: 'from-server', resource: 'spoofed' } };
    const h = harness({ 'resource-page-actions': [probe], 'resource-before-relations': [probe] });
    const record = { id: 7, title: 'Hello', label: 'Greeting', group: 'news' };
    const context = { resource: 'articles', resourceId: 7, record };
    renderPage(
      h,
      <>
        <AppSlotRenderer location="resource-page-actions" context={context} />
        <AppSlotRenderer location="resource-before-relations" context={context} />
      </>,
      true,
    );
    const probes = await screen.findAllByTestId('probe');
    const [withContext, without] = probes.map(
      (element) => JSON.parse(element.textContent ?? '{}') as Record<string, unknown>,
    );
    // The host's context wins over same-named props from the server.
    expect(withContext).toEqual({ label: 'from-server', resource: 'articles', resourceId: 7, record });
    expect(without).toEqual({ label: 'from-server', resource: 'spoofed' });
  });

  it('renders content as children: text as text, a slot entry through the same registry', async () => {
    const h = harness({
      'login-before-form': [
        { component: 'Callout', props: { tone: 'info' }, content: '<b>not html</b>' },
        {
          component: 'Callout',
          props: { tone: 'success' },
          content: [
            { component: 'WelcomeCard', props: { title: 'Welcome back' } },
            { component: 'Notice', props: { title: 'Nested', text: 'z' } },
          ],
        },
      ],
    });
    renderPage(h, <AppSlotRenderer location="login-before-form" />);
    const text = await screen.findByText('<b>not html</b>');
    expect(text.tagName).toBe('ASIDE');
    expect(document.querySelector('b')).toBeNull();
    const success = document.querySelector('[data-tone="success"]') as HTMLElement;
    expect(
      [...success.querySelectorAll('[data-slot-component]')].map((node) => node.getAttribute('data-slot-component')),
    ).toEqual(['WelcomeCard', 'Notice']);
    expect(within(success).getByText('Welcome back').tagName).toBe('STRONG');
  });

  describe('isolation', () => {
    const slots: SlotMap = {
      'global-before-content': [
        { component: 'Notice', props: { title: 'Before', text: 'a' } },
        { component: 'Missing', props: {} },
        { component: 'Thrower', props: {} },
        { component: 'Notice', props: { title: 'After', text: 'b' } },
      ],
    };

    it('keeps the page and the other slots when one is unknown or throws; logs each failure once', async () => {
      const h = harness(slots);
      const view = renderPage(h, <AppSlotRenderer location="global-before-content" />);
      await screen.findByText('Before');
      expect(screen.getByText('After')).toBeTruthy();

      const missing = document.querySelector('[data-slot-component="Missing"]') as HTMLElement;
      await waitFor(() => expect(missing.getAttribute('data-slot-failed')).toBe('unknown-component'));
      expect(within(missing).getByRole('note').textContent).toContain(HOST_MESSAGES.unknownComponent('Missing'));
      const thrower = document.querySelector('[data-slot-component="Thrower"]') as HTMLElement;
      await waitFor(() => expect(thrower.getAttribute('data-slot-failed')).toBe('render-error'));
      expect(within(thrower).getByRole('note').textContent).toMatch(/Thrower exploded while rendering/);
      expect(within(thrower).getByRole('note').textContent).toMatch(/remote team_test/);

      expect(h.logged).toEqual([
        {
          location: 'global-before-content',
          component: 'Missing',
          remote: null,
          kind: 'unknown-component',
          error: HOST_MESSAGES.unknownComponent('Missing'),
        },
        {
          location: 'global-before-content',
          component: 'Thrower',
          remote: 'team_test',
          kind: 'render-error',
          error: 'Thrower exploded while rendering',
        },
      ]);
      // Re-rendering and remounting the page logs nothing new.
      view.rerenderAs(false, <div />);
      view.rerenderAs(false, <AppSlotRenderer location="global-before-content" />);
      await screen.findByText('Before');
      expect(h.logged).toHaveLength(2);
    });

    it('logs through console.error with a structured object by default', async () => {
      const h = harness({ 'header-banner': [{ component: 'Missing', props: {} }] });
      Object.assign(h.runtime, createSlotStatus());
      const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      renderPage(h, <AppSlotRenderer location="header-banner" />);
      await waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
      expect(spy).toHaveBeenCalledWith(HOST_MESSAGES.slotFailureLog, {
        location: 'header-banner',
        component: 'Missing',
        remote: null,
        kind: 'unknown-component',
        error: HOST_MESSAGES.unknownComponent('Missing'),
      });
      spy.mockRestore();
    });

    it('shows nothing of a failed slot in production, still logging it', async () => {
      const h = harness(slots, { showFailures: false });
      renderPage(h, <AppSlotRenderer location="global-before-content" />);
      await screen.findByText('After');
      await waitFor(() => expect(h.logged).toHaveLength(2));
      expect(screen.queryByRole('note')).toBeNull();
      const missing = document.querySelector('[data-slot-component="Missing"]') as HTMLElement;
      const thrower = document.querySelector('[data-slot-component="Thrower"]') as HTMLElement;
      expect(missing.hidden).toBe(true);
      expect(thrower.hidden).toBe(true);
      expect(missing.textContent).toBe('');
      expect(location('global-before-content').textContent).toBe('Beforea' + 'Afterb');
    });

    it('isolates a component whose lazy load fails', async () => {
      const h = harness({
        'header-banner': [
          { component: 'Broken', props: {} },
          { component: 'Notice', props: { title: 'Still here', text: '' } },
        ],
      });
      const { lazy } = await import('react');
      h.registry.register(
        'Broken',
        lazy(async () => {
          throw new Error('chunk failed to load');
        }),
      );
      renderPage(h, <AppSlotRenderer location="header-banner" />);
      await screen.findByText('Still here');
      await waitFor(() => expect(h.logged).toHaveLength(1));
      expect(h.logged[0]).toMatchObject({ component: 'Broken', kind: 'render-error', error: 'chunk failed to load' });
    });
  });

  describe('slot status', () => {
    it('gets each transition from where it is seen: the mark when rendered, the boundary when it catches', async () => {
      let fail = true;
      function Flaky() {
        if (fail) throw new Error('flaky failed');
        return <p>recovered</p>;
      }
      const h = harness({
        'header-banner': [
          { component: 'Notice', props: { title: 'Steady', text: '' } },
          { component: 'Flaky', props: {} },
        ],
      });
      h.registry.register('Flaky', Flaky);
      const seen: string[] = [];
      h.runtime.slotStatus?.onTransition(({ slot }) => seen.push(`${slot.component}:${slot.state}`));
      renderPage(h, <AppSlotRenderer location="header-banner" />);
      await screen.findByText('Steady');
      await waitFor(() => expect(seen).toEqual(['Notice:rendered', 'Flaky:failed']));
      expect(h.runtime.slotStatus?.snapshot().map((slot) => [slot.component, slot.page, slot.index])).toEqual([
        ['Notice', '/', 0],
        ['Flaky', '/', 1],
      ]);

      fail = false;
      fireEvent.click(within(location('header-banner')).getByRole('button', { name: 'Retry' }));
      await screen.findByText('recovered');
      expect(seen).toEqual(['Notice:rendered', 'Flaky:failed', 'Flaky:rendered']);
      expect(h.runtime.slotStatus?.snapshot().map((slot) => slot.state)).toEqual(['rendered', 'rendered']);
      expect(document.querySelector('[data-slot-component="Flaky"]')?.hasAttribute('data-slot-failed')).toBe(false);
    });

    it('keeps each slot on the page once under StrictMode, whose double mounts write nothing twice', async () => {
      const h = harness({
        'header-banner': [
          { component: 'Notice', props: { title: 'Strict', text: '' } },
          { component: 'Thrower', props: {} },
        ],
      });
      const seen: string[] = [];
      h.runtime.slotStatus?.onTransition(({ slot }) => seen.push(`${slot.component}:${slot.state}`));
      renderWithSlotBoundaries(
        <StrictMode>
          <SlotRuntimeProvider runtime={h.runtime}>
            <SlotSourceProvider source={createTestSlotSource(h.api)}>
              <AppSlotRenderer location="header-banner" />
            </SlotSourceProvider>
          </SlotRuntimeProvider>
        </StrictMode>,
      );
      await screen.findByText('Strict');
      await waitFor(() => expect(h.logged).toHaveLength(1));
      expect(seen).toEqual(['Notice:rendered', 'Thrower:failed']);
      expect(h.runtime.slotStatus?.snapshot().map((slot) => `${slot.component}:${slot.state}`)).toEqual([
        'Notice:rendered',
        'Thrower:failed',
      ]);
      expect(h.runtime.failedSlots?.snapshot()).toHaveLength(1);
    });

    it('says loading while a lazy component loads, then rendered', async () => {
      let resolve: (module: { default: typeof Notice }) => void = () => undefined;
      const { lazy } = await import('react');
      const h = harness({ 'header-banner': [{ component: 'Late', props: { title: 'Late', text: '' } }] });
      h.registry.register(
        'Late',
        lazy(() => new Promise<{ default: typeof Notice }>((done) => (resolve = done))),
      );
      const seen: string[] = [];
      h.runtime.slotStatus?.onTransition(({ slot }) => seen.push(slot.state));
      renderPage(h, <AppSlotRenderer location="header-banner" />);
      await waitFor(() => expect(seen).toEqual(['loading']));
      await act(async () => resolve({ default: Notice }));
      await screen.findByRole('heading', { name: 'Late' });
      await waitFor(() => expect(seen).toEqual(['loading', 'rendered']));
    });

    it('gives up a slot still loading after the time limit as timed out, and starts the time again on a retry', async () => {
      jest.useFakeTimers();
      try {
        const { lazy } = await import('react');
        const h = harness({
          'header-banner': [
            { component: 'Notice', props: { title: 'Steady', text: '' } },
            { component: 'Forever', props: {} },
          ],
        });
        // A component whose module never arrives, or that suspends on a promise that never settles.
        h.registry.register(
          'Forever',
          lazy(() => new Promise<{ default: typeof Notice }>(() => undefined)),
        );
        h.runtime.remoteOf = () => 'team_test';
        const events: (SlotLoadEvent | null)[] = [];
        h.runtime.slotStatus?.onTransition(({ slot, previous }) => events.push(slotLoadEventOf(slot, previous)));
        renderPage(h, <AppSlotRenderer location="header-banner" />);
        await screen.findByText('Steady');
        await act(async () => jest.advanceTimersByTime(SLOT_LOAD_TIMEOUT_MS - 100));
        expect(h.runtime.slotStatus?.snapshot().map((slot) => slot.state)).toEqual(['rendered', 'loading']);

        await act(async () => jest.advanceTimersByTime(100));
        const forever = h.runtime.slotStatus?.snapshot()[1];
        expect(forever?.state).toBe('failed');
        expect(forever?.failure?.message).toBe(HOST_MESSAGES.slotTimedOut('Forever', SLOT_LOAD_TIMEOUT_MS));
        expect(isTimeout(forever?.failure ?? null)).toBe(true);
        // Counted, so a canary doing this to every visitor is judged as failing.
        expect(events.at(-1)).toMatchObject({ component: 'Forever', outcome: 'timed-out', phase: 'render' });
        expect(document.querySelector('[data-slot-component="Forever"]')?.getAttribute('data-slot-failed')).toBe(
          'render-error',
        );
        expect(screen.getByText('Steady')).toBeTruthy();

        fireEvent.click(within(location('header-banner')).getByRole('button', { name: 'Retry' }));
        expect(h.runtime.slotStatus?.snapshot()[1]?.state).toBe('loading');
        await act(async () => jest.advanceTimersByTime(SLOT_LOAD_TIMEOUT_MS - 100));
        expect(h.runtime.slotStatus?.snapshot()[1]?.state).toBe('loading');
        await act(async () => jest.advanceTimersByTime(100));
        expect(h.runtime.slotStatus?.snapshot()[1]?.state).toBe('failed');
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe('fallback', () => {
    it('shows the fallback where every slot of the location failed, and not while the slot data loads', async () => {
      const h = harness({
        'header-banner': [
          { component: 'Thrower', props: {} },
          { component: 'Nowhere', props: {} },
        ],
      });
      renderPage(h, <AppSlotRenderer location="header-banner" fallback={<p>host fallback</p>} />);
      expect(screen.queryByText('host fallback')).toBeNull();
      await screen.findByText('host fallback');
      await waitFor(() => expect(h.logged).toHaveLength(2));
      // Both failures are recorded (the inspector, the log), but the fallback covers them: no tool is missing, so
      // the notice that some tools are unavailable has nothing to say.
      const recorded = h.runtime.slotStatus?.snapshot() ?? [];
      expect(recorded.map((slot) => [slot.component, slot.remote, slot.failure?.kind])).toEqual([
        ['Thrower', 'team_test', 'render-error'],
        ['Nowhere', null, 'unknown-component'],
      ]);
      expect(h.runtime.failedSlots?.snapshot()).toEqual([]);
    });

    it('counts the failures of a location with a fallback once the fallback is gone', async () => {
      const h = harness({ 'header-banner': [{ component: 'Thrower', props: {} }] });
      const view = renderPage(h, <AppSlotRenderer location="header-banner" fallback={<p>host fallback</p>} />);
      await screen.findByText('host fallback');
      expect(h.runtime.failedSlots?.snapshot()).toEqual([]);
      view.rerenderAs(false, <AppSlotRenderer location="header-banner" />);
      await waitFor(() => expect(h.runtime.failedSlots?.snapshot().map((slot) => slot.component)).toEqual(['Thrower']));
    });

    it('shows the fallback where no slot is registered, and none where one slot renders', async () => {
      const h = harness({
        'header-banner': [
          { component: 'Thrower', props: {} },
          { component: 'Notice', props: { title: 'Works', text: '' } },
        ],
      });
      renderPage(
        h,
        <>
          <AppSlotRenderer location="header-banner" fallback={<p>banner fallback</p>} />
          <AppSlotRenderer location="login-sidebar" fallback={<p>sidebar fallback</p>} />
        </>,
      );
      await screen.findByText('sidebar fallback');
      await screen.findByText('Works');
      await waitFor(() => expect(h.logged).toHaveLength(1));
      expect(screen.queryByText('banner fallback')).toBeNull();
    });
  });

  it('exposes the dashboards and modules of /meta to the page through useSlotData', async () => {
    const h = harness({});
    function Cards() {
      const { meta, source } = useSlotData();
      const modules = meta?.modules.map(
        (module) => `${module.label}[${module.resources.map((resource) => resource.label).join(',')}]`,
      );
      return (
        <p>
          {source}:{meta?.dashboards.map((dashboard) => dashboard.label).join(',')}|{modules?.join(',')}
        </p>
      );
    }
    renderPage(h, <Cards />, true);
    await screen.findByText('meta:Overview|Content[Articles]');
  });

  it('turns a slot whose component is unregistered after it rendered into the unknown-component failure, and only it', async () => {
    const h = harness({
      'login-before-form': [
        { component: 'Notice', props: { title: 'Welcome', text: 'first' } },
        { component: 'Callout', props: { tone: 'info' }, content: 'still here' },
      ],
    });
    renderPage(h, <AppSlotRenderer location="login-before-form" />);
    await screen.findByRole('heading', { name: 'Welcome' });

    act(() => {
      h.registry.unregister('Notice');
    });
    const notice = location('login-before-form').querySelector('[data-slot-component="Notice"]') as HTMLElement;
    await waitFor(() => expect(notice.getAttribute('data-slot-failed')).toBe('unknown-component'));
    expect(within(notice).getByRole('note').textContent).toContain(HOST_MESSAGES.unknownComponent('Notice'));
    expect(screen.queryByRole('heading', { name: 'Welcome' })).toBeNull();
    expect(screen.getByText('still here')).toBeTruthy();
    expect(h.logged.map((failure) => [failure.component, failure.location])).toEqual([['Notice', 'login-before-form']]);

    // Registered again, the same slot renders the component once more.
    act(() => {
      h.registry.register('Notice', Notice);
    });
    await screen.findByRole('heading', { name: 'Welcome' });
  });
});

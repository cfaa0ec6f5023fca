import '../../../testing/host/router-globals';
import axe from 'axe-core';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  API_CLIENT_MESSAGES,
  instantInUtc,
  OPERATOR_ROLE,
  RECORDS_READ,
  RELEASES_MANAGE,
  RELEASES_PAGE_PATH,
  VIEWER_ROLE,
  type RemoteHistoryPayload,
  type RemoteRelease,
  type RemoteReleasesPayload,
  type SlotStatsPayload,
} from '../../../shared';
import {
  createFakeApi,
  proxyPage,
  UNAUTHENTICATED,
  type FakeApi,
  type FakeRoute,
} from '../../../testing/host/fake-api';
import { CANARY_OF_NOBODY_FIELDS } from './canary-form';
import { UNSAVED_CHANGES_MESSAGE } from '../../hooks/unsaved-changes';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { refuseLeaving } from '../../../testing/host/leaving-refused';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

const REMOTE = 'team_records';

function release(version: string, day: number): RemoteRelease {
  return {
    remote: REMOTE,
    version,
    entry: `https://cdn.example/${version}/mf-manifest.json`,
    components: ['Hello'],
    formComponents: [],
    props: {},
    publishedBy: 'token:7',
    publishedAt: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`,
  };
}

/** 1.2.0 published, 1.1.0 active, 1.0.0 before it; a canary of 1.2.0 to 10 % and the tenant globex. */
function releases(overrides: Partial<RemoteReleasesPayload['remotes'][number]> = {}): RemoteReleasesPayload {
  return {
    remotes: [
      {
        remote: REMOTE,
        rollout: { remote: REMOTE, active: '1.1.0', canary: { version: '1.2.0', percent: 10, tenants: ['globex'] } },
        // 1.0.0 came from a kit before releases kept which kit built them.
        releases: [
          { ...release('1.2.0', 20), kit: '0.8.2' },
          { ...release('1.1.0', 10), kit: '0.8.1' },
          release('1.0.0', 1),
        ],
        preview: null,
        automaticRollback: null,
        plan: null,
        ...overrides,
      },
    ],
  };
}

function api(roles: string[], routes: Record<string, FakeRoute> = {}): FakeApi {
  return createFakeApi({
    'GET /me': { body: demoMe(roles) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/remotes/releases': { body: releases() },
    ...routes,
  });
}

function renderApp(fake: FakeApi, path: string = RELEASES_PAGE_PATH) {
  return renderAppAt(fake, path);
}

/** The remote's section, found by its heading. */
async function remoteSection(name = REMOTE): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name, level: 2 });
  return heading.closest('section') as HTMLElement;
}

function statusText(): string {
  return document.querySelector('[data-releases-status]')?.textContent ?? '';
}

fakeModalDialogs();

/**
 * Presses a release action and answers its question in the app's dialog (its action's button, or Cancel); returns
 * what it asked (title and description), and checks that it opened on Cancel and names and describes itself.
 */
async function pressAndAnswer(button: HTMLElement, confirm = true): Promise<string> {
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog');
  expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
  const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
  const asked = `${document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ?? ''} ${described?.textContent ?? ''}`;
  const answer = within(dialog).getAllByRole('button')[confirm ? 0 : 1] as HTMLElement;
  fireEvent.click(answer);
  expect((dialog as HTMLDialogElement).open).toBe(false);
  return asked;
}

describe('the releases page', () => {
  it('lists each remote with its releases, newest first, who published them, and the rollout', async () => {
    renderApp(api([OPERATOR_ROLE]));
    const section = await remoteSection();
    await screen.findByRole('heading', { name: 'Releases', level: 1 });
    expect(within(section).getByText(/Active: 1\.1\.0\./).textContent).toBe(
      'Active: 1.1.0. Canary: 1.2.0 to 10 % and globex.',
    );
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-release'))).toEqual(['1.2.0', '1.1.0', '1.0.0']);
    expect(rows[0]?.textContent).toContain('by token:7, built with remote kit 0.8.2');
    expect(rows[1]?.textContent).toContain('by token:7, built with remote kit 0.8.1');
    expect(rows[2]?.textContent).not.toContain('remote kit');
    expect(rows[0]?.textContent).toContain('Canary (1.2.0 to 10 % and globex)');
    expect(rows[1]?.textContent).toContain('Active');
    // The active release has no action; a newer one is activated, an older one rolled back to.
    expect(within(rows[1] as HTMLElement).queryAllByRole('button')).toEqual([]);
    expect(within(section).getByRole('button', { name: 'Activate 1.2.0' })).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Roll back to 1.0.0' })).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Activate 1.0.0' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'End canary' })).toBeTruthy();
  });

  it('shows each release’s slot loads of the last hour, the canary’s next to the stable one’s', async () => {
    const figures = (release: string, rendered: number, failed: number, p95Ms: number) => ({
      remote: REMOTE,
      release,
      location: '',
      component: '',
      loads: rendered + failed,
      rendered,
      failed,
      timedOut: 0,
      hidden: 0,
      failureRate: failed / (rendered + failed),
      p50Ms: 90,
      p95Ms,
      phases: { manifest: 0, entry: 0, init: 0, factory: 0, render: failed, load: 0 },
      visitors: 10,
      failedVisitors: failed > 0 ? 1 : 0,
    });
    const stats: SlotStatsPayload = {
      window: '1h',
      stats: [],
      releases: [figures('1.1.0', 396, 4, 240), figures('1.2.0', 70, 30, 480)],
      served: { [REMOTE]: '1.1.0' },
      anonymous: { stats: [], releases: [] },
    };
    renderApp(api([OPERATOR_ROLE], { 'GET /api/slot-stats?window=1h': { body: stats } }));
    const section = await remoteSection();
    await waitFor(() => expect(section.querySelector('[data-release="1.2.0"] [data-failure-rate]')).not.toBeNull());
    const row = (version: string) => section.querySelector(`[data-release="${version}"]`)?.textContent ?? '';
    expect(row('1.2.0')).toContain('10030.0 % of 100480 ms');
    expect(row('1.1.0')).toContain('4001.0 % of 400240 ms');
    expect(row('1.0.0')).toContain('———');
    // Published: in English, in the reader's zone and saying it, the exact instant in the markup.
    const published = section.querySelector('[data-release="1.2.0"] time');
    expect(published?.textContent).toBe(instantInWords('2026-11-20T10:00:00.000Z', readerLocales()));
    expect(published?.getAttribute('dateTime')).toBe('2026-11-20T10:00:00.000Z');
  });

  it('shows a canary the server ended on its own without a reload, at the next reading of the rollouts', async () => {
    jest.useFakeTimers();
    try {
      let current = releases();
      const fake = api([OPERATOR_ROLE], { 'GET /api/remotes/releases': () => ({ body: current }) });
      renderApp(fake);
      const section = await remoteSection();
      expect(within(section).getByText(/Active: 1\.1\.0\./).textContent).toContain('Canary: 1.2.0');
      const rollback = {
        version: '1.2.0',
        at: '2026-11-24T10:00:00.000Z',
        reason: 'failure rate 30.0 % over 200 loads against 1.0 % for 1.1.0',
      };
      current = releases({ rollout: { remote: REMOTE, active: '1.1.0', canary: null }, automaticRollback: rollback });
      await act(async () => {
        jest.advanceTimersByTime(20_000);
      });
      await waitFor(() => expect(within(section).getByText(/Active: 1\.1\.0\./).textContent).toContain('No canary.'));
      // Said where the operator looks, and announced once, without taking the focus.
      const said = `The canary 1.2.0 of ${REMOTE} was rolled back automatically on ${instantInWords(rollback.at, readerLocales())}: ${rollback.reason}.`;
      expect(section.querySelector('[data-automatic-rollback="1.2.0"]')?.textContent).toBe(said);
      expect(statusText().trim()).toBe(said);
      expect(document.activeElement).toBe(document.body);
      // The page's refreshes are its own: they keep no session alive (a page left open is signed out when idle).
      const reads = fake.requests.filter((request) => request.path === '/api/remotes/releases');
      expect(reads.map((request) => request.background ?? false)).toEqual([false, true]);
      const statsReads = fake.requests.filter((request) => request.path.startsWith('/api/slot-stats'));
      expect(statsReads.map((request) => request.background ?? false)).toEqual([false, true]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the link to operators only', async () => {
    renderApp(api([OPERATOR_ROLE]), '/');
    expect(await screen.findByRole('link', { name: 'Releases' })).toHaveProperty('pathname', RELEASES_PAGE_PATH);
  });

  it('shows other staff neither the link nor the page, and asks the API nothing', async () => {
    const fake = api([]);
    renderApp(fake);
    await screen.findByRole('heading', { name: 'Operators only', level: 1 });
    expect(screen.queryByRole('link', { name: 'Releases' })).toBeNull();
    expect(fake.count('GET', '/api/remotes/releases')).toBe(0);
  });

  it("follows the permissions /me gives for the current tenant, not the role's name", async () => {
    const granted = demoMe([VIEWER_ROLE]);
    granted.user.permissions = [RECORDS_READ, RELEASES_MANAGE];
    renderApp(api([], { 'GET /me': { body: granted } }), '/');
    expect(await screen.findByRole('link', { name: 'Releases' })).toHaveProperty('pathname', RELEASES_PAGE_PATH);
    expect(screen.queryByRole('link', { name: 'Placements' })).toBeNull();
    cleanup();

    // An operator of another tenant, a viewer in this one: neither link, and "operators only" at the page.
    const viewerHere = demoMe([VIEWER_ROLE]);
    viewerHere.user.permissions = [RECORDS_READ];
    const fake = api([], { 'GET /me': { body: viewerHere } });
    renderApp(fake);
    await screen.findByRole('heading', { name: 'Operators only', level: 1 });
    expect(screen.queryByRole('link', { name: 'Releases' })).toBeNull();
    expect(fake.count('GET', '/api/remotes/releases')).toBe(0);
  });

  it('shows "operators only" when the API answers 403 (the role was taken away since signing in)', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': { status: 403, body: { error: { code: 'forbidden', message: 'Operators only.' } } },
    });
    renderApp(fake);
    await screen.findByRole('heading', { name: 'Operators only', level: 1 });
    expect(screen.queryByRole('heading', { name: REMOTE })).toBeNull();
  });

  it('says why a change would be refused to an operator of this tenant only, and offers previews alone', async () => {
    const refusal = 'Only operators may do this: … and your account does not have it in Globex.';
    // The canary's tenants as the server shows them to such an operator: their own named, the others counted.
    const canary = { version: '1.2.0', percent: 10, tenants: ['acme'], otherTenants: 2 };
    const rollout = { remote: REMOTE, active: '1.1.0', canary };
    renderApp(
      api([OPERATOR_ROLE], {
        'GET /api/remotes/releases': { body: { ...releases({ rollout }), changesRefused: refusal } },
      }),
    );
    const section = await remoteSection();
    expect(document.querySelector('[data-releases-read-only]')?.textContent).toContain(refusal);
    const buttons = within(section)
      .queryAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).toEqual(['Preview 1.2.0', 'Preview 1.0.0', 'Show history']);
    expect(within(section).queryByRole('heading', { name: 'Canary' })).toBeNull();
    // The rollout stays readable.
    expect(within(section).getByText(/Active: 1\.1\.0\./)).toBeTruthy();
    expect(within(section).getByText(/Canary: 1\.2\.0 to 10 % and acme, 2 tenants hidden from you\./)).toBeTruthy();
  });

  it('activates after a confirmation, reloads the list, announces it and focuses the remote', async () => {
    let active = '1.1.0';
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': () => ({
        body: releases({ rollout: { remote: REMOTE, active, canary: null } }),
      }),
      'POST /api/remotes/team_records/activate?*': (request) => {
        active = (request.body as { version: string }).version;
        return { body: { remote: REMOTE, active, canary: null } };
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    const asked = await pressAndAnswer(within(section).getByRole('button', { name: 'Activate 1.2.0' }));

    await waitFor(() => expect(statusText()).toBe('Activated team_records to 1.2.0.'));
    // No canary runs: the confirmation mentions none.
    expect(asked).toBe('Activate team_records to 1.2.0? Every host serves it from the next page load, to everyone.');
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/remotes/team_records/activate?active=1.1.0&canary=', body: { version: '1.2.0' } },
    ]);
    expect(fake.count('GET', '/api/remotes/releases')).toBe(2);
    expect(within(section).getByText(/^Active:/).textContent).toBe('Active: 1.2.0. No canary.');
    expect(within(section).getByRole('button', { name: 'Roll back to 1.1.0' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: REMOTE }));
    // The canary's version was 1.2.0, active now: the canary offers the others, and sends what it shows.
    expect(
      within(within(section).getByRole('form', { name: `Canary of ${REMOTE}` }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1.1.0', '1.0.0']);
    expect((within(section).getByLabelText('Canary version') as HTMLSelectElement).value).toBe('1.1.0');
    fake.routes.set('POST /api/remotes/team_records/canary?*', { body: {} });
    fireEvent.click(within(section).getByRole('button', { name: 'Start canary' }));
    await waitFor(() => expect(fake.count('POST', '/api/remotes/team_records/canary?active=1.2.0&canary=')).toBe(1));
    expect(fake.requests.find((request) => request.path.includes('/canary?'))?.body).toMatchObject({
      version: '1.1.0',
    });
  });

  it('says the list could not be loaded when its answer is a page that is not JSON (a proxy’s)', async () => {
    renderApp(api([OPERATOR_ROLE], { 'GET /api/remotes/releases': proxyPage() }));
    expect((await screen.findByRole('alert')).textContent).toContain(API_CLIENT_MESSAGES.unreadable);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('says the list on screen is not the new one when its reload after a change answers a page that is not JSON', async () => {
    const fake = api([OPERATOR_ROLE], {
      'POST /api/remotes/team_records/activate?*': { body: { remote: REMOTE, active: '1.2.0', canary: null } },
    });
    renderApp(fake);
    const section = await remoteSection();
    fake.routes.set('GET /api/remotes/releases', proxyPage());
    await pressAndAnswer(within(section).getByRole('button', { name: 'Activate 1.2.0' }));
    await waitFor(() =>
      expect(statusText()).toBe(
        `Activated team_records to 1.2.0. The list could not be reloaded (${API_CLIENT_MESSAGES.unreadable}): reload the page.`,
      ),
    );
  });

  it('says in the confirmation that activating, rolling back or serving the own build ends the running canary', async () => {
    const fake = api([OPERATOR_ROLE], {
      'POST /api/remotes/team_records/activate?*': { body: {} },
      'POST /api/remotes/team_records/rollback?*': { body: {} },
      'POST /api/remotes/team_records/deactivate?*': { body: {} },
    });
    renderApp(fake);
    const section = await remoteSection();
    const ends =
      ' Every host serves it from the next page load, to everyone. This ends the canary of 1.2.0 to 10 % and globex.';
    // The list read again after each change still shows the canary: each button asks with it.
    for (const [button, confirmation, done] of [
      ['Activate 1.2.0', `Activate team_records to 1.2.0?${ends}`, 'Activated team_records to 1.2.0.'],
      ['Roll back to 1.0.0', `Roll back team_records to 1.0.0?${ends}`, 'Rolled back team_records to 1.0.0.'],
      [
        "Serve the server's own build",
        "Serve the server's own build of team_records? 1.1.0 goes out of force: the build the server was given is " +
          `served.${ends}`,
        'team_records serves the build the server was given again.',
      ],
    ] as const) {
      expect(await pressAndAnswer(within(section).getByRole('button', { name: button }))).toBe(confirmation);
      await waitFor(() => expect(statusText()).toBe(done));
      // After the change the focus is on the remote's heading, above its new state (the button may be gone).
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: REMOTE }));
    }
  });

  it('says in the confirmation that activating, rolling back or a canary stops a running plan', async () => {
    const plan = {
      remote: REMOTE,
      version: '1.2.0',
      steps: [
        { share: 10, minutes: 10 },
        { share: 100, minutes: 0 },
      ],
      step: 0,
      share: 10,
      state: 'running' as const,
      stepStartedAt: '2026-11-25T10:00:00.000Z',
      startedBy: 'bea',
      startedAt: '2026-11-25T10:00:00.000Z',
      reason: null,
    };
    const rollout = { remote: REMOTE, active: '1.1.0', canary: { version: '1.2.0', percent: 10, tenants: [] } };
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': { body: releases({ rollout, plan }) },
      'POST /api/remotes/team_records/activate?*': { body: {} },
      'POST /api/remotes/team_records/rollback?*': { body: {} },
      'POST /api/remotes/team_records/canary?*': { body: {} },
    });
    renderApp(fake);
    const section = await remoteSection();
    const stops =
      ' This also stops the progressive rollout of 1.2.0 (running at step 1 of 2, 10 %) for good: start a new one to go on.';
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Activate 1.2.0' }), false)).toMatch(
      new RegExp(`ends the canary of 1\\.2\\.0 to 10 %\\.${stops.replace(/[.()%]/g, '\\$&')}$`),
    );
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Roll back to 1.0.0' }), false)).toContain(
      stops,
    );
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Start canary' }), false)).toContain(stops);
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('shows a release the server rolled back with when and why, and warns before putting it in force again', async () => {
    const rollback = {
      version: '1.2.0',
      at: '2026-11-24T08:00:00.000Z',
      reason: 'canary 1.2.0: 4 of 4 visitors (100.0 %) saw a failure',
    };
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': {
        body: releases({ rollout: { remote: REMOTE, active: '1.1.0', canary: null }, automaticRollbacks: [rollback] }),
      },
      'POST /api/remotes/team_records/activate?*': { body: {} },
      'POST /api/remotes/team_records/canary?*': { body: {} },
    });
    renderApp(fake);
    const section = await remoteSection();
    const state = `Rolled back automatically on ${instantInWords(rollback.at, readerLocales())}: ${rollback.reason}`;
    const row = section.querySelector('[data-release="1.2.0"]') as HTMLElement;
    expect(within(row).getByText(state)).toBeTruthy();
    expect(
      within(section.querySelector('[data-release="1.0.0"]') as HTMLElement).queryByText(/Rolled back/),
    ).toBeNull();
    const warning = ` Careful: 1.2.0 failed its visitors before. ${state}.`;
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Activate 1.2.0' }), false)).toBe(
      `Activate team_records to 1.2.0? Every host serves it from the next page load, to everyone.${warning}`,
    );
    // A canary of it, with none running, is asked too.
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Start canary' }), false)).toBe(
      `Start 1.2.0 to 10 % for team_records?${warning}`,
    );
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('sends nothing when the confirmation is declined, and gives the focus back to the button that asked', async () => {
    const fake = api([OPERATOR_ROLE]);
    renderApp(fake);
    const button = within(await remoteSection()).getByRole('button', { name: 'Roll back to 1.0.0' });
    button.focus();
    await pressAndAnswer(button, false);
    await act(async () => undefined);
    expect(fake.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(document.activeElement).toBe(button);
    // Escape cancels too, and so gives the focus back.
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Roll back team_records to 1.0.0?' });
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(document.activeElement).toBe(button);
    await act(async () => undefined);
    expect(fake.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(statusText()).toBe('');
  });

  it('rolls back to an earlier release', async () => {
    const fake = api([OPERATOR_ROLE], { 'POST /api/remotes/team_records/rollback?*': { body: {} } });
    renderApp(fake);
    await pressAndAnswer(within(await remoteSection()).getByRole('button', { name: 'Roll back to 1.0.0' }));
    await waitFor(() => expect(statusText()).toBe('Rolled back team_records to 1.0.0.'));
    expect(fake.requests.find((request) => request.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/remotes/team_records/rollback?active=1.1.0&canary=1.2.0',
      body: { version: '1.0.0' },
    });
    expect(fake.count('GET', '/api/remotes/releases')).toBe(2);
  });

  it("serves the server's own build again after a confirmation, and offers it only while a release is in force", async () => {
    let active: string | null = '1.1.0';
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': () => ({ body: releases({ rollout: { remote: REMOTE, active, canary: null } }) }),
      'POST /api/remotes/team_records/deactivate?*': () => {
        active = null;
        return { body: { remote: REMOTE, active, canary: null } };
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    const asked = await pressAndAnswer(within(section).getByRole('button', { name: "Serve the server's own build" }));
    await waitFor(() => expect(statusText()).toBe('team_records serves the build the server was given again.'));
    expect(asked).toContain('1.1.0 goes out of force');
    expect(fake.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([
      '/api/remotes/team_records/deactivate?active=1.1.0&canary=',
    ]);
    expect(within(section).getByText(/^Active:/).textContent).toBe(
      'Active: none: the build the server was given is served. No canary.',
    );
    expect(within(section).queryByRole('button', { name: "Serve the server's own build" })).toBeNull();
  });

  it("shows a refused activation's message and every problem, in an alert that takes the focus", async () => {
    const fake = api([OPERATOR_ROLE], {
      'POST /api/remotes/team_records/activate?*': {
        status: 400,
        body: {
          error: { code: 'invalid_request', message: 'Release 1.2.0 would break 2 placements.' },
          problems: ['dashboard-before-cards: Hello: props.name is required', 'form articles: Rating is gone'],
        },
      },
    });
    renderApp(fake);
    await pressAndAnswer(within(await remoteSection()).getByRole('button', { name: 'Activate 1.2.0' }));

    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe('Refused: Release 1.2.0 would break 2 placements.');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['dashboard-before-cards: Hello: props.name is required', 'form articles: Rating is gone']);
    expect(document.activeElement).toBe(alert);
    expect(statusText()).toBe('');
    // Read again after the refusal: what moved meanwhile shows (below).
    await waitFor(() => expect(fake.count('GET', '/api/remotes/releases')).toBe(2));
    expect(document.activeElement).toBe(alert);
  });

  it("shows the instant a refusal gives in the reader's zone and form, not in the server's UTC", async () => {
    const moved = '2026-11-29T08:41:19.689Z';
    const fake = api([OPERATOR_ROLE], {
      'POST /api/remotes/team_records/activate?*': {
        status: 409,
        body: {
          error: {
            code: 'conflict',
            message: `The rollout of "team_records" moved since it was shown: now 1.2.0 active (changed by bea at ${instantInUtc(moved)}).`,
          },
          problems: [`1.2.0 was published at ${moved}`],
        },
      },
    });
    renderApp(fake);
    await pressAndAnswer(within(await remoteSection()).getByRole('button', { name: 'Activate 1.2.0' }));

    const alert = await screen.findByRole('alert');
    const shown = instantInWords('2026-11-29T08:41:00.000Z', readerLocales());
    expect(alert.querySelector('p')?.textContent).toBe(
      `Refused: The rollout of "team_records" moved since it was shown: now 1.2.0 active (changed by bea at ${shown}).`,
    );
    expect(within(alert).getByRole('listitem').textContent).toBe(
      `1.2.0 was published at ${instantInWords(moved, readerLocales())}`,
    );
    expect(alert.textContent).not.toContain('UTC');
  });

  it('reads the list again after a refusal, so a rollout changed by another operator shows at once', async () => {
    let active = '1.1.0';
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': () => ({ body: releases({ rollout: { remote: REMOTE, active, canary: null } }) }),
      'POST /api/remotes/team_records/activate?*': () => {
        // Another operator activated 1.2.0 a moment before this one's request.
        active = '1.2.0';
        return { status: 409, body: { error: { code: 'conflict', message: 'The rollout moved meanwhile.' } } };
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    expect(within(section).getByText(/Active: 1\.1\.0\./)).toBeTruthy();
    await pressAndAnswer(within(section).getByRole('button', { name: 'Activate 1.2.0' }));
    await screen.findByRole('alert');
    await waitFor(() => expect(within(section).getByText(/Active: 1\.2\.0\./)).toBeTruthy());
  });

  it('starts a canary with the share and tenants typed, and ends it', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': { body: releases({ rollout: { remote: REMOTE, active: '1.1.0', canary: null } }) },
      'POST /api/remotes/team_records/canary?*': { body: {} },
      'DELETE /api/remotes/team_records/canary?*': { status: 204 },
    });
    renderApp(fake);
    const section = await remoteSection();
    expect(within(section).queryByRole('button', { name: 'End canary' })).toBeNull();
    expect(
      within(within(section).getByRole('form', { name: `Canary of ${REMOTE}` }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1.2.0', '1.0.0']);
    fireEvent.change(within(section).getByLabelText('Share of users (%)'), { target: { value: '25' } });
    fireEvent.change(within(section).getByLabelText('Tenants'), { target: { value: 'globex, initech' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Start canary' }));

    await waitFor(() => expect(statusText()).toBe('Canary of team_records: 1.2.0 to 25 % and globex, initech.'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.requests.find((request) => request.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/remotes/team_records/canary?active=1.1.0&canary=',
      body: { version: '1.2.0', percent: 25, tenants: ['globex', 'initech'] },
    });
    expect(fake.count('GET', '/api/remotes/releases')).toBe(2);

    fake.routes.set('GET /api/remotes/releases', { body: releases() });
    fireEvent.click(within(section).getByRole('button', { name: 'Start canary' }));
    await waitFor(() => expect(fake.count('GET', '/api/remotes/releases')).toBe(3));
    fireEvent.click(await within(section).findByRole('button', { name: 'End canary' }));
    await waitFor(() => expect(statusText()).toBe('Canary of team_records ended.'));
    expect(fake.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      '/api/remotes/team_records/canary?active=1.1.0&canary=1.2.0',
    ]);
  });

  it('asks before leaving a canary or a rollout typed and not given, and not once it is given', async () => {
    const { confirm, goToDashboard } = refuseLeaving();
    try {
      const fake = api([OPERATOR_ROLE], {
        'GET /api/remotes/releases': { body: releases({ rollout: { remote: REMOTE, active: '1.1.0', canary: null } }) },
        'POST /api/remotes/team_records/canary?*': { body: {} },
      });
      renderApp(fake);
      const section = await remoteSection();
      const share = within(section).getByLabelText('Share of users (%)');
      fireEvent.change(share, { target: { value: '25' } });
      goToDashboard();
      await waitFor(() => expect(confirm).toHaveBeenCalledWith(UNSAVED_CHANGES_MESSAGE));
      expect(share).toHaveProperty('value', '25');

      // Typed back as it was: nothing to lose.
      fireEvent.change(share, { target: { value: '10' } });
      const shares = within(section).getByLabelText('Shares of users (%)');
      fireEvent.change(shares, { target: { value: '10, 100' } });
      confirm.mockClear();
      goToDashboard();
      await waitFor(() => expect(confirm).toHaveBeenCalledWith(UNSAVED_CHANGES_MESSAGE));
      fireEvent.change(shares, { target: { value: '5, 25, 50, 100' } });

      // Given: the canary's share is what the server has now, nothing is left unsaved.
      fireEvent.change(share, { target: { value: '25' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Start canary' }));
      await waitFor(() => expect(statusText()).toBe('Canary of team_records: 1.2.0 to 25 %.'));
      confirm.mockClear();
      goToDashboard();
      await waitFor(() => expect(screen.queryByRole('heading', { name: 'Releases', level: 1 })).toBeNull());
      expect(confirm).not.toHaveBeenCalled();
    } finally {
      confirm.mockRestore();
    }
  });

  it('gives a canary and a plan typed when the session ended back after signing in again, once, to the same user', async () => {
    try {
      const rollout = { rollout: { remote: REMOTE, active: '1.1.0', canary: null } };
      const { unmount } = renderApp(
        api([OPERATOR_ROLE], {
          'GET /api/remotes/releases': { body: releases(rollout) },
          'POST /api/remotes/team_records/canary?*': UNAUTHENTICATED,
        }),
      );
      let section = await remoteSection();
      fireEvent.change(within(section).getByLabelText('Shares of users (%)'), { target: { value: '10, 100' } });
      fireEvent.change(within(section).getByLabelText('Share of users (%)'), { target: { value: '25' } });
      fireEvent.change(within(section).getByLabelText('Tenants'), { target: { value: 'globex' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Start canary' }));
      await waitFor(() => expect(screen.queryByRole('heading', { name: 'Releases', level: 1 })).toBeNull());
      unmount();

      const again = renderApp(api([OPERATOR_ROLE], { 'GET /api/remotes/releases': { body: releases(rollout) } }));
      section = await remoteSection();
      expect(within(section).getByLabelText('Share of users (%)')).toHaveProperty('value', '25');
      expect(within(section).getByLabelText('Tenants')).toHaveProperty('value', 'globex');
      expect(within(section).getByLabelText('Shares of users (%)')).toHaveProperty('value', '10, 100');
      again.unmount();

      // Given back once: the next visit starts from the form's own values.
      renderApp(api([OPERATOR_ROLE], { 'GET /api/remotes/releases': { body: releases(rollout) } }));
      section = await remoteSection();
      expect(within(section).getByLabelText('Share of users (%)')).toHaveProperty('value', '10');
      expect(window.sessionStorage.length).toBe(0);
    } finally {
      window.sessionStorage.clear();
    }
  });

  it("bounds the share in the browser and shows the server's refusal of a canary of nobody", async () => {
    const fake = api([OPERATOR_ROLE], {
      'POST /api/remotes/team_records/canary?*': {
        status: 400,
        body: {
          error: {
            code: 'invalid_request',
            message: 'A canary needs a share above 0 or a tenant.',
            // The fields at fault, as the server names them.
            fields: { percent: 'A canary needs a share above 0 or a tenant.', tenants: 'A canary needs …' },
          },
        },
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    const share = within(section).getByLabelText('Share of users (%)') as HTMLInputElement;
    // Optional: a canary of named tenants only leaves it empty (0 %).
    expect([share.type, share.min, share.max, share.required]).toEqual(['number', '0', '100', false]);
    fireEvent.change(share, { target: { value: '' } });
    fireEvent.change(within(section).getByLabelText('Tenants'), { target: { value: '' } });
    // A canary runs (1.2.0 to 10 % and globex): replacing it is asked first, saying what ends.
    expect(await pressAndAnswer(within(section).getByRole('button', { name: 'Start canary' }))).toBe(
      'Replace the canary of team_records? The canary running now, 1.2.0 to 10 % and globex, ends: 1.2.0 to 0 % ' +
        'instead.',
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Refused: A canary needs a share above 0 or a tenant.');
    expect(fake.requests.find((request) => request.method === 'POST')?.body).toEqual({
      version: '1.2.0',
      percent: 0,
      tenants: [],
    });

    // The share and the tenants are what to correct: marked invalid, described by why (before their help).
    const shareHelp = 'Left empty: none, only the tenants below.';
    const tenantsHelp = 'Tenant ids, separated by commas: all their users get the canary.';
    await waitFor(() => expect(share.getAttribute('aria-invalid')).toBe('true'));
    const tenants = within(section).getByRole('textbox', {
      name: 'Tenants',
      description: `${CANARY_OF_NOBODY_FIELDS} ${tenantsHelp}`,
    });
    expect(tenants.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(section).getByRole('spinbutton', {
        name: 'Share of users (%)',
        description: `${CANARY_OF_NOBODY_FIELDS} ${shareHelp}`,
      }),
    ).toBe(share);

    // Either changed: no longer so.
    fireEvent.change(tenants, { target: { value: 'globex' } });
    for (const [field, help] of [
      [share, shareHelp],
      [tenants, tenantsHelp],
    ] as const) {
      expect(field.getAttribute('aria-invalid')).toBeNull();
      expect(within(section).getByRole(field === share ? 'spinbutton' : 'textbox', { description: help })).toBe(field);
    }
    expect(within(section).queryByText(CANARY_OF_NOBODY_FIELDS)).toBeNull();
    // The page's refusal of the last try goes with it: it said something of values no longer there.
    expect(document.querySelector('[data-releases-refused]')).toBeNull();

    // Refused for a tenant that does not exist: that field alone, described by the server's words.
    const noTenant = 'No tenant "globex"; tenants: acme.';
    fake.routes.set('POST /api/remotes/team_records/canary?*', {
      status: 400,
      body: { error: { code: 'invalid_request', message: noTenant, fields: { tenants: noTenant } } },
    });
    await pressAndAnswer(within(section).getByRole('button', { name: 'Start canary' }));
    await waitFor(() =>
      expect(
        fake.requests.filter((request) => request.path.startsWith('/api/remotes/team_records/canary?')),
      ).toHaveLength(2),
    );
    await screen.findByRole('alert');
    await waitFor(() => expect(tenants.getAttribute('aria-invalid')).toBe('true'));
    expect(share.getAttribute('aria-invalid')).toBeNull();
    expect(within(section).getByRole('textbox', { name: 'Tenants', description: `${noTenant} ${tenantsHelp}` })).toBe(
      tenants,
    );
    // Changed, it is no longer so.
    fireEvent.change(tenants, { target: { value: 'acme' } });
    expect(tenants.getAttribute('aria-invalid')).toBeNull();
  });

  it('previews a release in this session, says so, and stops the preview', async () => {
    let preview: string | null = null;
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': () => ({ body: releases({ preview }) }),
      'POST /api/remotes/team_records/preview': (request) => {
        preview = (request.body as { version: string }).version;
        return { body: {} };
      },
      'DELETE /api/remotes/team_records/preview': () => {
        preview = null;
        return { status: 204 };
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    expect(section.querySelector('[data-previewing]')).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Preview 1.0.0' }));

    await waitFor(() =>
      expect(section.querySelector('[data-previewing]')?.textContent).toContain('Previewing 1.0.0 in this session'),
    );
    expect(statusText()).toBe('Previewing team_records 1.0.0 in this session.');
    expect(within(section).queryByRole('button', { name: 'Preview 1.0.0' })).toBeNull();
    expect(fake.requests.find((request) => request.method === 'POST')?.body).toEqual({ version: '1.0.0' });

    fireEvent.click(within(section).getByRole('button', { name: 'Stop preview' }));
    await waitFor(() => expect(section.querySelector('[data-previewing]')).toBeNull());
    expect(fake.count('DELETE', '/api/remotes/team_records/preview')).toBe(1);
    expect(within(section).getByRole('button', { name: 'Preview 1.0.0' })).toBeTruthy();
  });

  it('shows the history on demand: when, who, what, before and after; read again after a change', async () => {
    const history: RemoteHistoryPayload = {
      remote: REMOTE,
      entries: [
        {
          id: 3,
          remote: REMOTE,
          action: 'canary',
          actor: 'admin',
          at: '2026-11-21T09:00:00.000Z',
          before: { remote: REMOTE, active: '1.1.0', canary: null },
          after: { remote: REMOTE, active: '1.1.0', canary: { version: '1.2.0', percent: 10, tenants: ['globex'] } },
        },
        {
          id: 2,
          remote: REMOTE,
          action: 'publish',
          actor: 'token:7',
          at: '2026-11-20T10:00:00.000Z',
          before: null,
          after: '1.2.0',
        },
      ],
    };
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/team_records/history': { body: history },
      'POST /api/remotes/team_records/rollback?*': { body: {} },
    });
    renderApp(fake);
    const section = await remoteSection();
    expect(fake.count('GET', '/api/remotes/team_records/history')).toBe(0);
    const toggle = within(section).getByRole('button', { name: 'Show history' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    const table = await within(section).findByRole('region', { name: 'History of team_records' });
    const rows = within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
    expect(
      rows.map((row) =>
        Array.from(row.cells)
          .slice(1)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['admin', 'Canary set', 'active 1.1.0 → active 1.1.0, canary 1.2.0 to 10 % and globex'],
      ['token:7', 'Published', 'none → 1.2.0'],
    ]);
    // When: in English, in the reader's zone and saying it, the exact instant in the markup.
    const times = rows.map((row) => row.cells[0]?.querySelector('time'));
    expect(times.map((time) => [time?.textContent, time?.getAttribute('dateTime'), time?.title])).toEqual(
      history.entries.map(({ at }) => [instantInWords(at, readerLocales()), at, at]),
    );

    await pressAndAnswer(within(section).getByRole('button', { name: 'Roll back to 1.0.0' }));
    await waitFor(() => expect(fake.count('GET', '/api/remotes/team_records/history')).toBe(2));
    fireEvent.click(within(section).getByRole('button', { name: 'Hide history' }));
    expect(within(section).queryByRole('region', { name: 'History of team_records' })).toBeNull();
  });

  it('passes axe-core (WCAG 2.1 A and AA, as far as jsdom lets it see) with a preview, a refusal and the history shown', async () => {
    const fake = api([OPERATOR_ROLE], {
      'GET /api/remotes/releases': { body: releases({ preview: '1.2.0' }) },
      'GET /api/remotes/team_records/history': { body: { remote: REMOTE, entries: [] } },
      'POST /api/remotes/team_records/rollback?*': {
        status: 400,
        body: { error: { code: 'invalid_request', message: 'Refused.' }, problems: ['a placement breaks'] },
      },
    });
    renderApp(fake);
    const section = await remoteSection();
    fireEvent.click(within(section).getByRole('button', { name: 'Show history' }));
    await within(section).findByText('No change recorded yet.');
    await pressAndAnswer(within(section).getByRole('button', { name: 'Roll back to 1.0.0' }));
    await screen.findByRole('alert');

    const results = await axe.run(document.body, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    expect(results.violations.map((violation) => [violation.id, violation.nodes.map((node) => node.html)])).toEqual([]);
  });
});

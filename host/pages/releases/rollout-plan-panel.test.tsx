import '../../../testing/host/router-globals';
import axe from 'axe-core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  OPERATOR_ROLE,
  RELEASES_PAGE_PATH,
  type RemoteRelease,
  type RemoteReleasesPayload,
  type RolloutPlan,
} from '../../../shared';
import { createFakeApi, type FakeApi, type FakeRoute } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import { parseShares, sharesProblem } from './start-rollout-form';
import { fakeModalDialogs } from '../../../testing/host/modal-dialogs';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

/**
 * The progressive rollout on the releases page: the plan and its current step, Pause / Resume / Promote now / Abort
 * asked again in the app's confirm dialog (opening on Cancel), where the focus goes after, and the form that starts
 * a plan.
 */
const REMOTE = 'team_records';
/** Where a plan is started from the page's rollout: 1.1.0 active, no canary. */
const SHOWN_ROLLOUTS_PATH = `/api/remotes/${REMOTE}/rollouts?active=1.1.0&canary=`;

fakeModalDialogs();

function release(version: string): RemoteRelease {
  return {
    remote: REMOTE,
    version,
    entry: `https://cdn.example/${version}/mf-manifest.json`,
    components: ['Hello'],
    formComponents: [],
    props: {},
    publishedBy: 'token:7',
    publishedAt: '2026-11-20T10:00:00.000Z',
  };
}

function plan(overrides: Partial<RolloutPlan> = {}): RolloutPlan {
  return {
    remote: REMOTE,
    version: '1.2.0',
    steps: [
      { share: 5, minutes: 10, visitors: 1 },
      { share: 25, minutes: 10, visitors: 40 },
      { share: 100, minutes: 0, visitors: 0 },
    ],
    step: 1,
    share: 25,
    state: 'running',
    stepStartedAt: '2026-11-25T10:00:00.000Z',
    startedBy: 'admin',
    startedAt: '2026-11-25T09:50:00.000Z',
    reason: null,
    ...overrides,
  };
}

function releases(current: RolloutPlan | null, changesRefused?: string): RemoteReleasesPayload {
  const canary =
    current && current.state === 'running' ? { version: '1.2.0', percent: current.share, tenants: [] } : null;
  return {
    ...(changesRefused === undefined ? {} : { changesRefused }),
    remotes: [
      {
        remote: REMOTE,
        rollout: { remote: REMOTE, active: '1.1.0', canary },
        releases: [release('1.2.0'), release('1.1.0')],
        preview: null,
        automaticRollback: null,
        plan: current,
      },
    ],
  };
}

function api(current: RolloutPlan | null, routes: Record<string, FakeRoute> = {}, changesRefused?: string): FakeApi {
  return createFakeApi({
    'GET /me': { body: demoMe([OPERATOR_ROLE]) },
    'GET /slots': { body: { slots: {} } },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/remotes/releases': { body: releases(current, changesRefused) },
    ...routes,
  });
}

async function remoteSection(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: REMOTE, level: 2 });
  return heading.closest('section') as HTMLElement;
}

function statusText(): string {
  return document.querySelector('[data-releases-status]')?.textContent ?? '';
}

describe('parseShares', () => {
  it('reads shares typed with commas, spaces or percent signs', () => {
    expect(parseShares('5, 25 50%,100')).toEqual([5, 25, 50, 100]);
    expect(parseShares('5, x')).toEqual([5, NaN]);
  });

  it('says what is wrong with the shares as typed, in the words of the field', () => {
    expect(sharesProblem('5, 25 50%,100')).toBeNull();
    expect(sharesProblem(' ')).toBe('Give one share per step, the last 100.');
    expect(sharesProblem('10, 5O, 100')).toBe('"5O" is not a share: give whole numbers from 1 to 100.');
    expect(sharesProblem('10, 0.5, 100')).toBe('"0.5" is not a share: give whole numbers from 1 to 100.');
    expect(sharesProblem('50, 20, 100')).toBe('20 must be above 50, the share before it, and at most 100.');
    expect(sharesProblem('0, 100')).toBe('0 must be above 0 and at most 100.');
    expect(sharesProblem('10, 150')).toBe('150 must be above 10, the share before it, and at most 100.');
    expect(sharesProblem('10, 50')).toBe('The last share is 100: the step that activates the release.');
  });
});

describe('the progressive rollout on the releases page', () => {
  it('shows the plan with its steps and the current one', async () => {
    renderAppAt(api(plan()), RELEASES_PAGE_PATH);
    const section = await remoteSection();
    const state = within(section).getByText(/^Rollout of 1\.2\.0/);
    expect(state.textContent).toBe(
      `Rollout of 1.2.0: running, at step 2 of 3 (25 %), since ${instantInWords('2026-11-25T10:00:00.000Z', readerLocales())}; ` +
        'started by admin.',
    );
    expect(state.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-25T10:00:00.000Z');
    const steps = within(section).getByRole('list', { name: `Steps of the rollout of ${REMOTE} 1.2.0` });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '5 % for 10 min and 1 visitor',
      '25 % for 10 min and 40 visitors (current)',
      '100 %: the release activated',
    ]);
    expect(items[1]?.getAttribute('aria-current')).toBe('step');
    expect(within(section).getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Resume' })).toBeNull();
    // No second plan while one runs.
    expect(within(section).queryByRole('form', { name: `Start a rollout of ${REMOTE}` })).toBeNull();
  });

  it('asks again in the confirm dialog, opening on Cancel; Cancel sends nothing', async () => {
    const fake = api(plan());
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const section = await remoteSection();
    fireEvent.click(within(section).getByRole('button', { name: 'Abort' }));
    const dialog = screen.getByRole('dialog', { name: `Abort the rollout of ${REMOTE} 1.2.0?` });
    expect(dialog.textContent).toContain('every user gets the stable release again');
    expect(dialog.textContent).toContain('It stands at step 2 of 3 (25 %).');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it.each([
    ['Pause', 'pause', `Pause the rollout of ${REMOTE} 1.2.0?`, 'paused'],
    ['Promote now', 'promote', `Activate now, for everyone, ${REMOTE} 1.2.0?`, 'promoted'],
    ['Abort', 'abort', `Abort the rollout of ${REMOTE} 1.2.0?`, 'aborted'],
  ])('%s, once confirmed, is sent, announced, and the focus goes to the remote', async (label, action, title, said) => {
    const fake = api(plan(), { [`POST /api/remotes/${REMOTE}/rollouts/current/${action}?*`]: { body: plan() } });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const section = await remoteSection();
    fireEvent.click(within(section).getByRole('button', { name: label }));
    const dialog = screen.getByRole('dialog', { name: title });
    fireEvent.click(within(dialog).getByRole('button', { name: label }));
    await waitFor(() => expect(statusText()).toContain(`Rollout of ${REMOTE} 1.2.0 ${said}`));
    // It names the plan shown, which the server compares with the plan it holds.
    const shown = 'version=1.2.0&startedAt=2026-11-25T09%3A50%3A00.000Z&state=running';
    expect(fake.count('POST', `/api/remotes/${REMOTE}/rollouts/current/${action}?${shown}`)).toBe(1);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: REMOTE, level: 2 }));
    expect((dialog as HTMLDialogElement).open).toBe(false);
  });

  it('offers Resume for a paused plan, and shows a refusal as the page’s alert, focused', async () => {
    const fake = api(plan({ state: 'paused' }), {
      [`POST /api/remotes/${REMOTE}/rollouts/current/resume?*`]: {
        status: 400,
        body: { error: { code: 'invalid_request', message: 'The rollout plan is aborted: nothing to resume.' } },
      },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const section = await remoteSection();
    expect(within(section).queryByRole('button', { name: 'Pause' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Resume' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resume' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('nothing to resume');
    expect(document.activeElement).toBe(alert);
  });

  it('shows the plan as it is now when an action was refused for a plan that moved (409)', async () => {
    let current = plan();
    const fake = api(null, {
      'GET /api/remotes/releases': () => ({ body: releases(current) }),
      [`POST /api/remotes/${REMOTE}/rollouts/current/promote?*`]: () => {
        // A colleague paused it a moment before this operator's Promote.
        current = plan({ state: 'paused' });
        const message = `The rollout plan of "${REMOTE}" moved since it was shown: now paused (changed by bea).`;
        return { status: 409, body: { error: { code: 'conflict', message } } };
      },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const section = await remoteSection();
    fireEvent.click(within(section).getByRole('button', { name: 'Promote now' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Promote now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('now paused (changed by bea)');
    await waitFor(() => expect(within(section).getByText(/^Rollout of 1\.2\.0: paused/)).toBeTruthy());
    expect(within(section).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('starts a plan from the form with its shares, minutes and visitors', async () => {
    const fake = api(plan({ state: 'aborted', reason: null }), {
      [`POST /api/remotes/${REMOTE}/rollouts?*`]: { status: 201, body: plan({ step: 0, share: 5 }) },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const section = await remoteSection();
    expect(within(section).getByText(/^Last rollout of 1\.2\.0: aborted/)).toBeTruthy();
    const form = within(section).getByRole('form', { name: `Start a rollout of ${REMOTE}` });
    fireEvent.change(within(form).getByLabelText('Shares of users (%)'), { target: { value: '10, 50, 100' } });
    fireEvent.change(within(form).getByLabelText('Minutes per step (at least)'), { target: { value: '30' } });
    fireEvent.change(within(form).getByLabelText('Visitors per step (at least)'), { target: { value: '100' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    await waitFor(() => expect(statusText()).toContain(`Rollout of ${REMOTE} 1.2.0 started at 10 %.`));
    // It names the rollout shown (1.1.0 active, no canary): refused once another operator started a canary since.
    const sent = fake.requests.find((request) => request.path === SHOWN_ROLLOUTS_PATH);
    expect(sent?.body).toEqual({
      version: '1.2.0',
      steps: [
        { share: 10, minutes: 30, visitors: 100 },
        { share: 50, minutes: 30, visitors: 100 },
        { share: 100, minutes: 30, visitors: 100 },
      ],
    });
  });

  it('says a typo in the shares at the field, focused, and sends nothing; takes minutes with a fraction', async () => {
    const fake = api(plan({ state: 'aborted', reason: null }), {
      [`POST /api/remotes/${REMOTE}/rollouts?*`]: { status: 201, body: plan({ step: 0, share: 10 }) },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const form = within(await remoteSection()).getByRole('form', { name: `Start a rollout of ${REMOTE}` });
    const shares = within(form).getByLabelText('Shares of users (%)');
    fireEvent.change(shares, { target: { value: '10, 5O, 100' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    await waitFor(() => expect(document.activeElement).toBe(shares));
    expect(shares.getAttribute('aria-invalid')).toBe('true');
    const described = (shares.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id));
    expect(described[0]?.textContent).toBe('"5O" is not a share: give whole numbers from 1 to 100.');
    expect(fake.count('POST', SHOWN_ROLLOUTS_PATH)).toBe(0);

    // Mended, the field says so at once, before any submit.
    fireEvent.change(shares, { target: { value: '10, 5, 100' } });
    expect(described[0]?.isConnected ? described[0].textContent : null).toBe(
      '5 must be above 10, the share before it, and at most 100.',
    );
    fireEvent.change(shares, { target: { value: '10, 50, 100' } });
    expect(shares.getAttribute('aria-invalid')).toBeNull();
    expect(shares.getAttribute('aria-describedby')?.split(' ')).toHaveLength(1);
    const minutes = within(form).getByLabelText('Minutes per step (at least)') as HTMLInputElement;
    fireEvent.change(minutes, { target: { value: '0.5' } });
    // The browser's own check of the field lets a fraction through (`step="any"`).
    expect(minutes.validity.valid).toBe(true);
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    await waitFor(() => expect(fake.count('POST', SHOWN_ROLLOUTS_PATH)).toBe(1));
    const sent = fake.requests.find((request) => request.path === SHOWN_ROLLOUTS_PATH);
    expect((sent?.body as { steps: { minutes: number }[] }).steps[0]?.minutes).toBe(0.5);
    expect(shares.getAttribute('aria-invalid')).toBeNull();
  });

  it('asks before a rollout replaces a canary running without a plan, saying what ends; Cancel sends nothing', async () => {
    const payload = releases(null);
    payload.remotes[0]!.rollout.canary = { version: '1.2.0', percent: 30, tenants: ['globex'] };
    const fake = api(null, { 'GET /api/remotes/releases': { body: payload } });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const form = within(await remoteSection()).getByRole('form', { name: `Start a rollout of ${REMOTE}` });
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    const dialog = await screen.findByRole('dialog', { name: `Replace the canary of ${REMOTE}?` });
    expect(dialog.textContent).toContain(
      'The canary running now, 1.2.0 to 30 % and globex, ends: a rollout of 1.2.0 from 5 % instead.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('names the canary it was shown when it replaces one, so the server refuses a canary changed since', async () => {
    const payload = releases(null);
    payload.remotes[0]!.rollout.canary = { version: '1.2.0', percent: 30, tenants: [] };
    const fake = api(null, {
      'GET /api/remotes/releases': { body: payload },
      [`POST /api/remotes/${REMOTE}/rollouts?*`]: { status: 201, body: plan({ step: 0, share: 5 }) },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const form = within(await remoteSection()).getByRole('form', { name: `Start a rollout of ${REMOTE}` });
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    const dialog = await screen.findByRole('dialog', { name: `Replace the canary of ${REMOTE}?` });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace the canary' }));
    await waitFor(() =>
      expect(fake.count('POST', `/api/remotes/${REMOTE}/rollouts?active=1.1.0&canary=1.2.0`)).toBe(1),
    );
  });

  it('says how many visitors a step held for them has and needs, and nothing once it is not waiting', async () => {
    renderAppAt(api(plan({ waitingForVisitors: { visitors: 2, needed: 40 } })), RELEASES_PAGE_PATH);
    const section = await remoteSection();
    expect(within(section).getByText(/^Waiting for visitors/).textContent).toBe(
      "Waiting for visitors: 2 of 40 since the step began (the step's own count, or the canary watch's minimum when " +
        'higher).',
    );
    cleanup();
    renderAppAt(api(plan()), RELEASES_PAGE_PATH);
    expect(within(await remoteSection()).queryByText(/^Waiting for visitors/)).toBeNull();
  });

  it('asks before rolling out a release the server rolled back, saying what its visitors saw', async () => {
    const payload = releases(plan({ state: 'rolled-back', reason: 'worse' }));
    const rollback = {
      version: '1.2.0',
      at: '2026-11-25T10:05:00.000Z',
      reason: 'canary 1.2.0: 4 of 4 visitors failed',
    };
    payload.remotes[0]!.automaticRollbacks = [rollback];
    const fake = api(null, {
      'GET /api/remotes/releases': { body: payload },
      [`POST /api/remotes/${REMOTE}/rollouts?*`]: { status: 201, body: plan({ step: 0, share: 5 }) },
    });
    renderAppAt(fake, RELEASES_PAGE_PATH);
    const form = within(await remoteSection()).getByRole('form', { name: `Start a rollout of ${REMOTE}` });
    fireEvent.click(within(form).getByRole('button', { name: 'Start rollout' }));
    const dialog = await screen.findByRole('dialog', { name: `Start a rollout of 1.2.0 from 5 % for ${REMOTE}?` });
    expect(dialog.textContent).toContain(
      `Careful: 1.2.0 failed its visitors before. Rolled back automatically on ${instantInWords(rollback.at, readerLocales())}: ` +
        'canary 1.2.0: 4 of 4 visitors failed.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Give it anyway' }));
    await waitFor(() => expect(fake.count('POST', SHOWN_ROLLOUTS_PATH)).toBe(1));
  });

  it('shows the plan without its buttons or form to an account that may not change rollouts', async () => {
    renderAppAt(api(plan(), {}, 'Refused in another tenant.'), RELEASES_PAGE_PATH);
    const section = await remoteSection();
    expect(within(section).getByText(/^Rollout of 1\.2\.0/)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Abort' })).toBeNull();
  });

  it('passes axe-core (WCAG 2.1 A and AA) with a plan and its confirmation open', async () => {
    renderAppAt(api(plan()), RELEASES_PAGE_PATH);
    const section = await remoteSection();
    fireEvent.click(within(section).getByRole('button', { name: 'Promote now' }));
    screen.getByRole('dialog');
    const results = await axe.run(document.body, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    expect(results.violations.map((violation) => [violation.id, violation.nodes.map((node) => node.html)])).toEqual([]);
  });
});

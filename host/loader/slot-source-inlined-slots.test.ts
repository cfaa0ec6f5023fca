import type { SignedOutBootData, SlotsPayload } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi, type FakeResponse } from '../../testing/host/fake-api';
import { slotDataSettled } from './slot-data-settled';
import { SlotSource } from './slot-source';

/** What the server inlined into the page: the public slots GET /slots answered the page's own request. */
const INLINED: SlotsPayload = {
  slots: {
    'header-banner': [{ component: 'MaintenanceNotice', props: { message: 'Sunday 02:00' } }],
    'login-before-form': [{ component: 'LoginNotice', props: { title: 'Welcome' } }],
  },
};
const SIGNED_OUT: SignedOutBootData = { me: null, slots: INLINED };

/** Lets the fake server answer and the stores settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const requested = (fake: FakeApi) => fake.requests.map((request) => `${request.method} ${request.path}`);

/** A route answered only when the test says so. */
function held(answer: FakeResponse) {
  let release = () => undefined as void;
  const route = () => new Promise<FakeResponse>((resolve) => (release = () => resolve(answer)));
  return { route, release: () => release() };
}

describe('SlotSource: the public slots inlined in a signed-out page', () => {
  it('are the first answer on the sign-in page: ready before any timer runs, no request made', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': held({ body: { slots: {} } }).route });
    const source = new SlotSource({ client: fake.client, pathname: '/login', sessionData: SIGNED_OUT });
    expect(requested(fake)).toEqual([]);
    await expect(source.earlySlots).resolves.toEqual(INLINED);
    // Settled in microtasks: the shell's first render (after at most its 150 ms) has them, so nothing goes below.
    const first = await Promise.race([slotDataSettled(source).then(() => 'settled'), settle().then(() => 'late')]);
    expect(first).toBe('settled');
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots', slots: INLINED.slots });
    await settle();
    expect(requested(fake)).toEqual([]);
  });

  it('answer on any page the server served without a session: no GET /slots, nor GET /meta there', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: { slots: {} } } });
    const source = new SlotSource({ client: fake.client, pathname: '/resources/articles', sessionData: SIGNED_OUT });
    // Answered already: the shell draws the page (and the sign-in page it sends the visitor to) without waiting.
    await expect(source.earlySlots).resolves.toEqual(INLINED);
    await settle();
    expect(requested(fake)).toEqual([]);
    expect(source.snapshot()).toMatchObject({ status: 'ready', source: 'slots', slots: INLINED.slots });
  });

  it('without them (an older server’s page), GET /slots is asked as before', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: INLINED } });
    const source = new SlotSource({ client: fake.client, pathname: '/login', sessionData: { me: null } });
    expect(requested(fake)).toEqual(['GET /slots']);
    await settle();
    expect(source.snapshot()).toMatchObject({ status: 'ready', slots: INLINED.slots });
  });

  it('stay shown while the next GET /slots is out, and give way to its answer when it differs', async () => {
    const changed: SlotsPayload = {
      slots: {
        'header-banner': [{ component: 'MaintenanceNotice', props: { message: 'Now: Monday 02:00' } }],
        'login-before-form': [{ component: 'LoginNotice', props: { title: 'Welcome' } }],
        'login-after-form': [{ component: 'AccountHelp', props: {} }],
      },
    };
    const next = held({ body: changed });
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': next.route });
    const source = new SlotSource({ client: fake.client, pathname: '/login', sessionData: SIGNED_OUT });
    await settle();
    const seen: string[] = [];
    source.subscribe(() => seen.push(source.snapshot().status));

    source.refresh();
    await settle();
    expect(requested(fake)).toEqual(['GET /slots']);
    // The same visitor: what is shown stays, never "loading" (no location empties and fills again).
    expect(source.snapshot()).toMatchObject({ status: 'ready', slots: INLINED.slots });
    next.release();
    await settle();
    expect(source.snapshot()).toMatchObject({ status: 'ready', slots: changed.slots });
    expect(seen).not.toContain('loading');
  });
});

import { SLOT_EVENTS_PATH, type SlotEventsBatch } from '../../shared';
import { MAX_EVENTS_PER_MINUTE, phaseOf, sendSlotEvents, type SlotEventsChannel } from './send-slot-events';
import { SlotStatus, type SlotPlace } from './slot-status';

const place = (component: string, remote: string | null = 'team_a', index = 0): SlotPlace => ({
  page: '/dashboard',
  location: 'header-banner',
  index,
  component,
  remote,
});

/** A channel that keeps the beacons, runs idle work when the test says, and leaves the page on demand. */
function fakeChannel() {
  const beacons: { url: string; batch: SlotEventsBatch }[] = [];
  const idle: (() => void)[] = [];
  const leave: (() => void)[] = [];
  const channel: SlotEventsChannel = {
    sendBeacon: (url, json) => {
      beacons.push({ url, batch: JSON.parse(json) as SlotEventsBatch });
      return true;
    },
    whenIdle: (work) => idle.push(work),
    onLeave: (listener) => leave.push(listener),
  };
  return {
    channel,
    beacons: () => beacons,
    runIdle: () => idle.splice(0).forEach((work) => work()),
    leavePage: () => leave.forEach((listener) => listener()),
  };
}

function statusAt(start = 1000) {
  let time = start;
  return { status: new SlotStatus(() => time), advance: (ms: number) => (time += ms) };
}

it('sends one event per load, when the page is idle, with outcome, phase and times and no message', async () => {
  const { status, advance } = statusAt();
  const fake = fakeChannel();
  sendSlotEvents(status, fake.channel);
  const a = status.handle();
  const b = status.handle();
  status.enter(a, place('A'));
  status.enter(b, place('B', 'team_b', 1));
  advance(120);
  status.rendered(a, place('A'));
  status.rendered(a, place('A'));
  advance(80);
  status.failed(b, place('B', 'team_b', 1), 'render-error', 'B broke with prop secret-value');
  expect(fake.beacons()).toEqual([]);
  fake.runIdle();
  const beacons = fake.beacons();
  expect(beacons).toHaveLength(1);
  expect(beacons[0]?.url).toBe(SLOT_EVENTS_PATH);
  expect(beacons[0]?.batch.events).toEqual([
    {
      location: 'header-banner',
      component: 'A',
      remote: 'team_a',
      outcome: 'rendered',
      phase: null,
      kind: null,
      loadMs: 120,
      startMs: 1000,
    },
    {
      location: 'header-banner',
      component: 'B',
      remote: 'team_b',
      outcome: 'failed',
      phase: 'render',
      kind: 'render-error',
      loadMs: 200,
      startMs: 1000,
    },
  ]);
  expect(JSON.stringify(beacons)).not.toContain('secret-value');
});

it('sends what is left when the page is hidden, in batches of 50, at most 300 a minute', async () => {
  const { status } = statusAt();
  const fake = fakeChannel();
  let clock = 0;
  sendSlotEvents(status, fake.channel, new Map(), () => clock);
  const loads = (count: number) => {
    for (let index = 0; index < count; index++) {
      const handle = status.handle();
      status.enter(handle, place(`C${index}`, 'team_a', index));
      status.rendered(handle, place(`C${index}`, 'team_a', index));
    }
  };
  loads(MAX_EVENTS_PER_MINUTE + 20);
  fake.leavePage();
  expect(fake.beacons().map((beacon) => beacon.batch.events.length)).toEqual(Array(6).fill(50));
  // A minute on, the page reports again.
  clock += 60_000;
  loads(10);
  fake.leavePage();
  expect(fake.beacons().map((beacon) => beacon.batch.events.length)).toEqual([...Array(6).fill(50), 10]);
});

it('leaves out slots of no remote, and transitions that end no load', async () => {
  const { status } = statusAt();
  const fake = fakeChannel();
  sendSlotEvents(status, fake.channel);
  const local = status.handle();
  status.enter(local, place('Local', null));
  status.failed(local, place('Local', null), 'unknown-component', 'No Local');
  const a = status.handle();
  status.enter(a, place('A'));
  status.failed(a, place('A'), 'load-error', 'x');
  status.failed(a, place('A'), 'render-error', 'y');
  fake.leavePage();
  expect(fake.beacons().flatMap((beacon) => beacon.batch.events.map((event) => event.kind))).toEqual(['load-error']);
});

it('tells a timed-out remote, and the phase of each failure, from the loader’s messages', async () => {
  const { status } = statusAt();
  const fake = fakeChannel();
  sendSlotEvents(status, fake.channel);
  const a = status.handle();
  status.enter(a, place('A'));
  const message =
    'Remote "team_a" could not be loaded: manifest http://x/mf-manifest.json failed after 2 attempts (timed out after 3500 ms).';
  status.failed(a, place('A'), 'remote-unavailable', message);
  fake.leavePage();
  const [event] = fake.beacons()[0]?.batch.events ?? [];
  expect([event?.outcome, event?.phase]).toEqual(['timed-out', 'manifest']);
  expect(phaseOf('remote-unavailable', 'Remote "x" could not be loaded: entry http://x/remoteEntry.js failed')).toBe(
    'entry',
  );
  expect(phaseOf('load-error', 'Module ./A of x threw')).toBe('factory');
  expect(phaseOf('load-error', 'Failed to initialize the share scope')).toBe('init');
  expect(phaseOf('render-error', 'boom')).toBe('render');
});

it('reports files that did not arrive with a loading phase, never as a failure of the code', () => {
  const loading = [
    // The runtime's manifest timeout, as Chromium's pages logged it (issue 50): once reported as `factory`.
    '[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003 args: {"manifestUrl":"http://x/mf-manifest.json","moduleName":"team_a"} TimeoutError: signal timed out',
    'Loading chunk 512 failed. (timeout: http://x/512.js)',
    'ChunkLoadError: Loading chunk 77 failed.',
    'TypeError: Failed to fetch',
    '[ Federation Runtime ]: Failed to load script resources. #RUNTIME-008 net::ERR_CONNECTION_REFUSED',
  ];
  for (const message of loading) expect([message, phaseOf('load-error', message)]).toEqual([message, 'load']);
  // Not a timeout, but still the origin's files: a manifest or entry the runtime could not get.
  expect(phaseOf('load-error', '[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003 404')).toBe('manifest');
  expect(phaseOf('load-error', '[ Federation Runtime ]: Failed to get remoteEntry exports. #RUNTIME-001')).toBe(
    'entry',
  );
  // The code's own failures stay the code's.
  expect(phaseOf('load-error', 'Module ./A of x threw')).toBe('factory');
  expect(phaseOf('render-error', 'boom')).toBe('render');
  expect(phaseOf('render-error', 'The slot was still loading after 20 s: timed out')).toBe('render');
  // A chunk its component imported while it rendered, which never arrived.
  expect(phaseOf('render-error', 'ChunkLoadError: Loading chunk 9 failed.')).toBe('load');
});

it('counts a slot that breaks after it rendered as a failed load: in place of its render not sent yet, else marked', () => {
  const { status, advance } = statusAt();
  const fake = fakeChannel();
  sendSlotEvents(status, fake.channel);
  const early = status.handle();
  status.enter(early, place('Early'));
  advance(40);
  status.rendered(early, place('Early'));
  advance(100);
  // An effect throws 100 ms after the render, before the page was idle: one failed load, timed to its render.
  status.failed(early, place('Early'), 'render-error', 'Early broke in an effect');
  fake.runIdle();
  expect(fake.beacons()[0]?.batch.events).toEqual([
    expect.objectContaining({ component: 'Early', outcome: 'failed', phase: 'render', loadMs: 40 }),
  ]);
  expect(fake.beacons()[0]?.batch.events[0]).not.toHaveProperty('afterRender');

  const late = status.handle();
  status.enter(late, place('Late', 'team_a', 1));
  status.rendered(late, place('Late', 'team_a', 1));
  fake.runIdle();
  // Its render went out; a later render throws: the failure is sent, marked to take the render's place.
  status.failed(late, place('Late', 'team_a', 1), 'render-error', 'Late broke on an update');
  fake.leavePage();
  expect(fake.beacons().flatMap((beacon) => beacon.batch.events)).toEqual([
    expect.objectContaining({ component: 'Early', outcome: 'failed' }),
    expect.objectContaining({ component: 'Late', outcome: 'rendered' }),
    expect.objectContaining({ component: 'Late', outcome: 'failed', phase: 'render', afterRender: true }),
  ]);
});

it('names the release each remote was registered from, as the server signed it, and none for a configured one', () => {
  const { status } = statusAt();
  const fake = fakeChannel();
  sendSlotEvents(status, fake.channel, new Map([['team_a', '1.2.0.c2lnbmVkLWJ5LXNlcnZlcg']]));
  const a = status.handle();
  status.enter(a, place('A'));
  status.rendered(a, place('A'));
  const b = status.handle();
  status.enter(b, place('B', 'team_b', 1));
  status.rendered(b, place('B', 'team_b', 1));
  fake.leavePage();
  const [fromRelease, configured] = fake.beacons()[0]?.batch.events ?? [];
  expect(fromRelease?.releaseTag).toBe('1.2.0.c2lnbmVkLWJ5LXNlcnZlcg');
  expect(configured).not.toHaveProperty('releaseTag');
});

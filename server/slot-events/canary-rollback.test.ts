/**
 * A canary that fails rolls itself back, driven by real events through POST /api/slot-events: half of its signed-in
 * visitors see failures, none of the stable release's; within a few checks the canary is ended, audited as
 * `canary-auto-rollback` with the numbers, and logged at error level. Visitors are judged, not events: one member
 * forging 60 failures is one failing visitor and cannot end a canary alone, and 1,000 forged anonymous failures of
 * the stable release change neither the verdict nor the stable release's figures.
 */
import pino from 'pino';
import request from 'supertest';
import {
  SLOT_EVENTS_PATH,
  type RemoteHistoryPayload,
  type RemoteReleasesPayload,
  type SlotStatsPayload,
} from '../../shared';
import {
  placedSlotsOptions,
  publishAndActivate,
  slotLoadEvents,
  startDescriptorOrigin,
  type DescriptorOrigin,
} from '../../testing/server/released-remote';
import { addUser, createTestApp, DEMO_PASSWORD, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { AUTO_ROLLBACK_ACTOR } from '../releases/release-service';

jest.setTimeout(30_000);

const METRICS_TOKEN = 'a-metrics-token-long-enough';
const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };
/** Another slot of the remote, on another page. */
const OTHER_SLOT = { remote: 'team_billing', component: 'InvoiceNote', location: 'dashboard-before-cards' };

let origin: DescriptorOrigin;
let testApp: TestApp;
let logged: { level: number; msg: string; reason?: string }[];

beforeAll(async () => {
  origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner', 'InvoiceNote'] });
});
afterAll(() => origin.close());

/** The app, its canary watch comparing every `checkMs`. */
async function start(checkMs: number): Promise<void> {
  logged = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: origin.remotesConfig },
    logger,
    slotEvents: { flushMs: 100, canary: { checkMs, minLoads: 50, minVisitors: 10, margin: 0.05 } },
    metrics: { token: METRICS_TOKEN },
    ...placedSlotsOptions([SLOT, OTHER_SLOT]),
  });
}
afterEach(() => testApp.close());

/** Sends `count` loads of the visitor's release, `failing` of them failed, in batches of 50. */
async function send(
  agent: Awaited<ReturnType<typeof signedInAgent>>,
  count: number,
  failing: number,
  slot: typeof SLOT = SLOT,
) {
  const events = slotLoadEvents(slot, count, failing);
  for (let start = 0; start < events.length; start += 50) {
    await agent
      .post(SLOT_EVENTS_PATH)
      .send({ events: events.slice(start, start + 50) })
      .expect(204);
  }
}

async function canaryRunning(): Promise<string | null> {
  await testApp.app.releases.snapshot.refresh();
  return testApp.app.releases.snapshot.rollout('team_billing')?.canary?.version ?? null;
}

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

/** `count` signed-in visitors (accounts) of the tenant `tenant`, each its own agent. */
async function visitors(tenant: 'canary' | 'stable', count: number): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${tenant}-visitor-${index}`;
    await addUser(testApp.app, name, DEMO_PASSWORD, [tenant]);
    agents.push(await signedInAgent(testApp.app, name));
  }
  return agents;
}

/** The canary 2.0.0 given to the tenant `canary`; 10 visitors of each release. */
async function startCanary() {
  const operator = await publishAndActivate(testApp.app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
  const [canary, stable] = [await visitors('canary', 10), await visitors('stable', 10)];
  await operator
    .post('/api/remotes/team_billing/canary')
    .send({ version: '2.0.0', percent: 0, tenants: ['canary'] })
    .expect(200);
  return { operator, canary, stable };
}

/** Each visitor sends `loads` loads of its release, the first `failingVisitors` of them `failing` failed. */
async function sendEach(group: Agent[], loads: number, failingVisitors: number, failing = loads, slot = SLOT) {
  for (const [index, agent] of group.entries()) await send(agent, loads, index < failingVisitors ? failing : 0, slot);
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function slotStats(agent: Agent): Promise<SlotStatsPayload> {
  await testApp.app.slotEvents.aggregator.flush();
  return (await agent.get('/api/slot-stats?window=5m').expect(200)).body as SlotStatsPayload;
}

it('rolls back a canary half of whose visitors see failures, none of the stable release, audited and logged', async () => {
  await start(200);
  const { operator, canary, stable } = await startCanary();
  await sendEach(stable, 10, 0);
  await sendEach(canary, 10, 5, 3);
  await waitFor(async () => (await canaryRunning()) === null, 10_000);

  expect(testApp.app.releases.snapshot.rollout('team_billing')).toEqual(
    expect.objectContaining({ remote: 'team_billing', active: '1.0.0', canary: null }),
  );
  const history = (await operator.get('/api/remotes/team_billing/history').expect(200)).body as RemoteHistoryPayload;
  const [latest] = history.entries;
  expect(latest).toEqual(
    expect.objectContaining({
      action: 'canary-auto-rollback',
      actor: AUTO_ROLLBACK_ACTOR,
      after: expect.objectContaining({
        active: '1.0.0',
        canary: null,
        reason: expect.stringMatching(
          /^canary 2\.0\.0: 5 of 10 visitors \(50\.0 %\) saw a failure, where stable 1\.0\.0: 0 of 10 \(0\.0 %\) on the same slots: more than 5\.0 points worse at 99 % confidence \(z = \d+\.\d\d\); most of all InvoiceBanner at header-banner \(5 of 10 visitors failed\)$/,
        ),
      }),
    }),
  );
  expect(history.entries.filter((entry) => entry.action === 'canary-auto-rollback')).toHaveLength(1);
  const listed = async () =>
    ((await operator.get('/api/remotes/releases').expect(200)).body as RemoteReleasesPayload).remotes.find(
      (remote) => remote.remote === 'team_billing',
    )?.automaticRollback;
  const audited = latest!.after as { reason: string };
  expect(await listed()).toEqual({ version: '2.0.0', at: latest!.at, reason: audited.reason });
  expect(logged).toContainEqual(
    expect.objectContaining({
      level: 50,
      // The fields of every rollout change's line, an operator's too (release-change-log.ts).
      actor: AUTO_ROLLBACK_ACTOR,
      remote: 'team_billing',
      action: 'canary-auto-rollback',
      version: '2.0.0',
      msg: expect.stringContaining('CANARY ROLLED BACK AUTOMATICALLY'),
    }),
  );
  // The figures operators read: loads as before, and the distinct visitors beside them.
  const figures = await slotStats(operator);
  const release = (version: string) => figures.releases.find((row) => row.release === version);
  expect(release('2.0.0')).toEqual(
    expect.objectContaining({ loads: 100, failed: 15, visitors: 10, failedVisitors: 5 }),
  );
  expect(release('1.0.0')).toEqual(expect.objectContaining({ loads: 100, failed: 0, visitors: 10, failedVisitors: 0 }));
  expect(figures.stats.find((row) => row.release === '2.0.0')).toEqual(
    expect.objectContaining({ ...SLOT, visitors: 10, failedVisitors: 5 }),
  );
  const families = parsePrometheusText(
    (await operator.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text,
  );
  expect(sampleValue(families, 'slots_canary_auto_rollbacks_total', { remote: 'team_billing' })).toBe(1);
  expect([...(families.get('slots_canary_percent')?.samples ?? [])]).toEqual([]);

  // Put in canary again (the watch stopped: the window still holds its failures, which would end it again).
  testApp.app.slotEvents.canaryWatch.close();
  await operator.post('/api/remotes/team_billing/canary').send({ version: '2.0.0', percent: 5 }).expect(200);
  expect(await listed()).toBeNull();
});

it('does not let one member end a canary alone: 60 forged failures from one session are one failing visitor', async () => {
  await start(3_600_000);
  const { operator, canary, stable } = await startCanary();
  await sendEach(stable, 10, 0);
  await sendEach(canary, 10, 0);
  // 60 failures in two requests, well within a session's limit, from one member of the canary.
  await send(canary[0]!, 60, 60);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
  const figures = await slotStats(operator);
  expect(figures.releases.find((row) => row.release === '2.0.0')).toEqual(
    expect.objectContaining({ failed: 60, visitors: 10, failedVisitors: 1 }),
  );
});

it('takes no forged anonymous failure into the verdict or into the stable release figures', async () => {
  await start(3_600_000);
  const { operator, canary, stable } = await startCanary();
  await sendEach(stable, 10, 0);
  const before = await slotStats(operator);
  // 1,000 failures of the stable release at a public location, from one address without signing in.
  const anonymous = request.agent(testApp.app.handler);
  for (let batch = 0; batch < 20; batch++) {
    await anonymous
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, 50, 50) })
      .expect(204);
  }
  const after = await slotStats(operator);
  // The stable release's health figures are the staff's: unchanged. The forged loads are shown apart, one address.
  expect(after.releases.find((row) => row.release === '1.0.0')).toEqual(
    before.releases.find((row) => row.release === '1.0.0'),
  );
  expect(after.stats).toEqual(before.stats);
  expect(after.anonymous.releases.find((row) => row.release === '1.0.0')).toEqual(
    expect.objectContaining({ failed: 1000, visitors: 1, failedVisitors: 1 }),
  );
  // And a canary failing for half its visitors is still rolled back, the stable release judged healthy.
  await sendEach(canary, 10, 5, 3);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBeNull();
  const history = (await operator.get('/api/remotes/team_billing/history').expect(200)).body as RemoteHistoryPayload;
  expect((history.entries[0]?.after as { reason: string }).reason).toContain('where stable 1.0.0: 0 of 10 (0.0 %)');
});

it('counts no failure of the canary from visitors it is not served to, whatever release tag they send', async () => {
  await start(3_600_000);
  const { canary, stable } = await startCanary();
  await sendEach(stable, 10, 0);
  await sendEach(canary, 10, 0);
  const served = (await canary[0]!.get('/api/remotes').expect(200)).body as {
    remotes: { name: string; releaseTag?: string }[];
  };
  const releaseTag = served.remotes.find((remote) => remote.name === 'team_billing')?.releaseTag;
  expect(releaseTag).toMatch(/^2\.0\.0\./);
  const forged = slotLoadEvents(SLOT, 50, 50).map((event) => ({ ...event, releaseTag }));
  // Anonymous, and signed in outside the canary: both are left out, not counted under any release.
  await request(testApp.app.handler).post(SLOT_EVENTS_PATH).send({ events: forged }).expect(204);
  for (const agent of stable) await agent.post(SLOT_EVENTS_PATH).send({ events: forged }).expect(204);
  await testApp.app.slotEvents.aggregator.flush();
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
  // Its own visitors' failures still count: the same tag from half of the canary's visitors rolls it back.
  for (const agent of canary.slice(0, 5)) await agent.post(SLOT_EVENTS_PATH).send({ events: forged }).expect(204);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBeNull();
});

it('lets a canary run while it has too few visitors to judge, however bad', async () => {
  await start(3_600_000);
  const { canary, stable } = await startCanary();
  await sendEach(stable, 10, 0);
  await sendEach(canary.slice(0, 9), 10, 9);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
});

it('lets a canary run while its share of failing visitors is within the margin', async () => {
  await start(3_600_000);
  const { canary, stable } = await startCanary();
  await sendEach(stable, 10, 2, 1);
  // 3 of 10 against 2 of 10: 10 points more, not significant at 99 %.
  await sendEach(canary, 10, 3, 1);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
});

it('lets an unchanged canary run whose visitors opened the page of a slot failing on both releases', async () => {
  await start(3_600_000);
  const { canary, stable } = await startCanary();
  // InvoiceBanner fails for most visitors on both releases; the canary's visitors saw it, the stable ones too.
  await sendEach(canary, 10, 8, 5);
  await sendEach(stable, 10, 8, 5);
  await sendEach(stable, 10, 0, 0, OTHER_SLOT);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
});

it('rolls back a canary that breaks a slot beside one failing for everyone on both releases', async () => {
  await start(3_600_000);
  const { operator, canary, stable } = await startCanary();
  // InvoiceNote fails for every visitor of both releases: every visitor of the remote failed somewhere, on both.
  // InvoiceBanner works on the stable release and fails for every canary visitor.
  await sendEach(stable, 5, 10, 5, OTHER_SLOT);
  await sendEach(canary, 5, 10, 5, OTHER_SLOT);
  await sendEach(stable, 5, 0);
  await sendEach(canary, 5, 10, 5);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBeNull();
  const [latest] = ((await operator.get('/api/remotes/team_billing/history').expect(200)).body as RemoteHistoryPayload)
    .entries;
  expect(latest).toEqual(
    expect.objectContaining({
      action: 'canary-auto-rollback',
      after: expect.objectContaining({
        reason: expect.stringMatching(
          /^canary 2\.0\.0: on InvoiceBanner at header-banner, 10 of 10 visitors \(100\.0 %\) saw a failure, where stable 1\.0\.0: 0 of 10 \(0\.0 %\) on it: .* over the 2 slots judged one by one/,
        ),
      }),
    }),
  );
});

it('judges slots the stable release had no visitor of in the window by its visitors over the last day', async () => {
  await start(3_600_000);
  const { canary } = await startCanary();
  // Two hours ago, all ten stable visitors of InvoiceBanner failed on it; in the window only the canary's loaded it
  // (a canary at 100 %), failing as often: nothing new.
  const hour = 3_600_000;
  await testApp.app.slotEvents.visitorStore.add(
    Array.from({ length: 10 }, (_, index) => ({
      ...SLOT,
      release: '1.0.0',
      span: 'hour' as const,
      startAt: Math.floor(Date.now() / hour) * hour - 2 * hour,
      audience: 'staff' as const,
      visitor: `stable-${index}`,
      failed: true,
      codeFailed: true,
    })),
  );
  await sendEach(canary, 10, 10, 5);
  await testApp.app.slotEvents.canaryWatch.check();
  expect(await canaryRunning()).toBe('2.0.0');
});

it("judges a progressive rollout's step by the same rule: unknown until it has its visitors, then no worse or worse", async () => {
  // A long check interval: the watch itself rolls nothing back while the step is asked.
  await start(600_000);
  const { canary, stable } = await startCanary();
  const watch = testApp.app.slotEvents.canaryWatch;
  const step = { since: Date.now() - 60_000, minVisitors: 10 };
  expect(await watch.canaryHealth('team_billing', '2.0.0', step)).toEqual({
    health: 'unknown',
    visitors: { visitors: 0, needed: 10 },
  });
  await sendEach(stable, 5, 0);
  await sendEach(canary.slice(0, 5), 5, 0);
  // Five of the ten visitors the step asks for: said, so the page can tell a step held for visitors.
  expect(await watch.canaryHealth('team_billing', '2.0.0', step)).toEqual({
    health: 'unknown',
    visitors: { visitors: 5, needed: 10 },
  });
  // A step asking fewer than the watch's own minimum (10 here) still waits for the watch's.
  expect(await watch.canaryHealth('team_billing', '2.0.0', { ...step, minVisitors: 2 })).toEqual({
    health: 'unknown',
    visitors: { visitors: 5, needed: 10 },
  });
  await sendEach(canary.slice(5), 5, 0);
  expect(await watch.canaryHealth('team_billing', '2.0.0', step)).toEqual({ health: 'no-worse' });
  // Half of them now see failures, none of the stable release's visitors: the step would roll the canary back, with
  // the figures the watch's own rollback gives.
  await sendEach(canary.slice(0, 5), 5, 5);
  expect(await watch.canaryHealth('team_billing', '2.0.0', step)).toEqual({
    health: 'worse',
    reason: expect.stringMatching(
      /^canary 2\.0\.0: 5 of 10 visitors \(50\.0 %\) saw a failure, .* \(z = \d+\.\d\d\); most of all InvoiceBanner at header-banner/,
    ),
  });
});

it("counts and logs a progressive rollout's automatic rollback as the watch's own, with the figures", async () => {
  await start(600_000);
  const operator = await publishAndActivate(testApp.app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
  const steps = [
    { share: 50, minutes: 10 },
    { share: 100, minutes: 0 },
  ];
  await operator.post('/api/remotes/team_billing/rollouts').send({ version: '2.0.0', steps }).expect(201);
  const measured = 'canary 2.0.0: 4 of 4 visitors (100.0 %) saw a failure (z = 3.10)';
  testApp.app.releases.judgeRolloutsWith({ canaryHealth: () => ({ health: 'worse', reason: measured }) });
  await testApp.app.releases.rollouts.check();
  expect(await canaryRunning()).toBeNull();
  const families = parsePrometheusText(
    (await operator.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text,
  );
  expect(sampleValue(families, 'slots_canary_auto_rollbacks_total', { remote: 'team_billing' })).toBe(1);
  const reason = `the canary was worse than its stable release at step 1 of 2 (50 %): ${measured}`;
  expect(logged).toContainEqual(
    expect.objectContaining({
      level: 50,
      actor: AUTO_ROLLBACK_ACTOR,
      remote: 'team_billing',
      action: 'rollout-rolled-back',
      version: '2.0.0',
      reason,
      msg: `ROLLOUT ROLLED BACK AUTOMATICALLY: remote "team_billing" 2.0.0: ${reason}`,
    }),
  );
});

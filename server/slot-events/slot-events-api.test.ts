/**
 * POST /api/slot-events and GET /api/slot-stats through the app: the accepted shape, the refusals (cross-site, over
 * the size cap, over the rate), the tenant and release the server tags (never the body's), and the events of slots
 * the visitor could not have loaded left out.
 */
import request from 'supertest';
import { SLOT_EVENTS_PATH, SLOT_STATS_PATH, type SlotStatsPayload } from '../../shared';
import {
  placedSlotsOptions,
  publishAndActivate,
  slotLoadEvents,
  startDescriptorOrigin,
  type DescriptorOrigin,
} from '../../testing/server/released-remote';
import { NO_TENANT_MESSAGE } from '../auth/current-tenant';
import { addUser, createTestApp, DEMO_PASSWORD, signedInAgent, type TestApp } from '../../testing/server/test-app';

const SLOT = { remote: 'team_billing', component: 'InvoiceBanner', location: 'header-banner' };
/** A protected location where InvoiceBanner is placed too. */
const PROTECTED = 'dashboard-before-cards';

let origin: DescriptorOrigin;
let testApp: TestApp;

beforeAll(async () => {
  origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner', 'InvoiceNote'] });
});
afterAll(() => origin.close());

beforeEach(async () => {
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: origin.remotesConfig },
    slotEvents: { eventsPerSessionPerMinute: 120, eventsPerAddressPerMinute: 1000, canary: { enabled: false } },
    ...placedSlotsOptions([
      SLOT,
      { ...SLOT, location: PROTECTED },
      { ...SLOT, component: 'InvoiceNote', location: PROTECTED, visibleWhen: { roles: ['operator'] } },
    ]),
  });
  await publishAndActivate(testApp.app, 'team_billing', origin.url, ['1.0.0', '2.0.0']);
});
afterEach(() => testApp.close());

async function stats(agent: ReturnType<typeof request.agent>): Promise<SlotStatsPayload> {
  return (await agent.get(`${SLOT_STATS_PATH}?window=5m`).expect(200)).body as SlotStatsPayload;
}

/** 2.0.0 as a canary for tenant beta only: the operator who started it (tenant acme) and a visitor of beta. */
async function canaryForBeta() {
  await addUser(testApp.app, 'canary-user', DEMO_PASSWORD, ['beta']);
  const operator = await signedInAgent(testApp.app, 'operator');
  await operator
    .post('/api/remotes/team_billing/canary')
    .send({ version: '2.0.0', percent: 0, tenants: ['beta'] })
    .expect(200);
  return { operator, visitor: await signedInAgent(testApp.app, 'canary-user') };
}

it('takes a batch of the contract shape with 204 and counts it under the release the server serves', async () => {
  const operator = await signedInAgent(testApp.app, 'operator');
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 10, 3) })
    .expect(204);
  const payload = await stats(operator);
  const rows = payload.stats;
  expect(payload.served).toEqual({ team_billing: '1.0.0' });
  expect(payload.releases).toEqual([
    expect.objectContaining({ remote: 'team_billing', release: '1.0.0', location: '', component: '', loads: 10 }),
  ]);
  expect(rows).toEqual([
    expect.objectContaining({
      ...SLOT,
      release: '1.0.0',
      loads: 10,
      rendered: 7,
      failed: 3,
      timedOut: 0,
      hidden: 0,
      failureRate: 0.3,
      phases: { manifest: 0, entry: 0, init: 0, factory: 0, render: 3, load: 0 },
      visitors: 1,
      failedVisitors: 1,
    }),
  ]);
  expect(rows[0]?.p95Ms).toBeGreaterThan(100);
  expect(rows[0]?.p95Ms).toBeLessThanOrEqual(250);
});

it('ignores a tenant and a release forged in the body: the session and the rollout decide', async () => {
  const { operator, visitor } = await canaryForBeta();
  const recorded: unknown[] = [];
  const record = testApp.app.slotEvents.aggregator.record.bind(testApp.app.slotEvents.aggregator);
  jest.spyOn(testApp.app.slotEvents.aggregator, 'record').mockImplementation((event) => {
    recorded.push(event);
    return record(event);
  });
  const forged = slotLoadEvents(SLOT, 2).map((event) => ({ ...event, tenant: 'acme', release: '1.0.0' }));
  await visitor.post(SLOT_EVENTS_PATH).send({ events: forged, tenant: 'acme', release: '1.0.0' }).expect(204);
  expect(recorded).toEqual([
    expect.objectContaining({ tenant: 'beta', release: '2.0.0' }),
    expect.objectContaining({ tenant: 'beta', release: '2.0.0' }),
  ]);
  const { stats: rows } = await stats(operator);
  expect(rows.map((row) => [row.release, row.loads])).toEqual([['2.0.0', 2]]);
});

it('counts a page’s events under the release its remotes list signed, after a rollback too; a forged tag is not read', async () => {
  const operator = await signedInAgent(testApp.app, 'operator');
  // The page loaded while 2.0.0 was in force: its remotes list names it, signed.
  await operator.post('/api/remotes/team_billing/activate').send({ version: '2.0.0' }).expect(200);
  const remotes = (await operator.get('/api/remotes').expect(200)).body as {
    remotes: { name: string; releaseTag?: string }[];
  };
  const releaseTag = remotes.remotes.find((remote) => remote.name === 'team_billing')?.releaseTag;
  expect(releaseTag).toMatch(/^2\.0\.0\.[\w-]{22}$/);
  // Rolled back to 1.0.0 while the tab stays open: its failures are 2.0.0's, not the stable release's.
  await operator.post('/api/remotes/team_billing/rollback').send({ version: '1.0.0' }).expect(200);
  const page = slotLoadEvents(SLOT, 4, 4).map((event) => ({ ...event, releaseTag }));
  const forged = slotLoadEvents(SLOT, 3).map((event) => ({ ...event, releaseTag: `2.0.0.${'A'.repeat(22)}` }));
  const otherRemote = slotLoadEvents(SLOT, 2).map((event) => ({
    ...event,
    releaseTag: releaseTag!.replace('2.0.0', '1.0.0'),
  }));
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: [...page, ...forged, ...otherRemote] })
    .expect(204);
  const { stats: rows } = await stats(operator);
  expect(rows.map((row) => [row.release, row.loads, row.failed]).sort()).toEqual([
    ['1.0.0', 5, 0],
    ['2.0.0', 4, 4],
  ]);
});

it('counts a slot that failed after it rendered as a failed load in place of its render', async () => {
  const operator = await signedInAgent(testApp.app, 'operator');
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 10) })
    .expect(204);
  const late = slotLoadEvents(SLOT, 3, 3).map((event) => ({ ...event, afterRender: true }));
  await operator.post(SLOT_EVENTS_PATH).send({ events: late }).expect(204);
  const [row] = (await stats(operator)).stats;
  expect(row).toMatchObject({ loads: 10, rendered: 7, failed: 3, failureRate: 0.3 });
  expect(row?.phases.render).toBe(3);
  // Only a render fails after the render.
  for (const wrong of [
    { outcome: 'rendered', phase: null, kind: null, afterRender: true },
    { outcome: 'failed', phase: 'entry', kind: 'remote-unavailable', afterRender: true },
    { outcome: 'failed', phase: 'render', kind: 'render-error', afterRender: 'yes' },
  ]) {
    const [event] = slotLoadEvents(SLOT, 1, 1);
    await operator
      .post(SLOT_EVENTS_PATH)
      .send({ events: [{ ...event, ...wrong }] })
      .expect(400);
  }
});

it('counts an anonymous visitor under the active release, and leaves out slots it could not have loaded', async () => {
  await request(testApp.app.handler)
    .post(SLOT_EVENTS_PATH)
    .send({
      events: [
        ...slotLoadEvents(SLOT, 1),
        ...slotLoadEvents({ ...SLOT, component: 'NotProvided' }, 1),
        ...slotLoadEvents({ ...SLOT, remote: 'unknown_remote' }, 1),
        ...slotLoadEvents({ ...SLOT, location: 'not-a-location' }, 1),
        // Provided by the release, but placed nowhere: a made-up failure must not count against it.
        ...slotLoadEvents({ ...SLOT, component: 'InvoiceNote' }, 1, 1),
        // Placed, but at a protected location, which no page shows a visitor who is not signed in.
        ...slotLoadEvents({ ...SLOT, location: PROTECTED }, 1, 1),
      ],
    })
    .expect(204);
  const operator = await signedInAgent(testApp.app, 'operator');
  // Apart from the staff's: anyone can send these, so they are never a release's health figures.
  const { stats: staffRows, anonymous } = await stats(operator);
  expect(staffRows).toEqual([]);
  expect(anonymous.stats.map((row) => [row.remote, row.release, row.component, row.location, row.loads])).toEqual([
    ['team_billing', '1.0.0', 'InvoiceBanner', 'header-banner', 1],
  ]);
  expect(anonymous.stats[0]).toEqual(expect.objectContaining({ visitors: 1, failedVisitors: 0 }));

  // Signed in, the protected slot counts; the slot placed nowhere still does not.
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({
      events: [
        ...slotLoadEvents({ ...SLOT, location: PROTECTED }, 1, 1),
        ...slotLoadEvents({ ...SLOT, component: 'InvoiceNote' }, 1, 1),
      ],
    })
    .expect(204);
  const after = (await stats(operator)).stats;
  expect(after.map((row) => [row.component, row.location, row.loads, row.failed])).toEqual([
    ['InvoiceBanner', PROTECTED, 1, 1],
  ]);
});

it("leaves out a signed-in visitor's events of a slot a rule hides from them", async () => {
  await addUser(testApp.app, 'editor', DEMO_PASSWORD, ['acme']);
  const editor = await signedInAgent(testApp.app, 'editor');
  const operator = await signedInAgent(testApp.app, 'operator');
  const ruled = slotLoadEvents({ ...SLOT, component: 'InvoiceNote', location: PROTECTED }, 2, 2);
  // The editor's /meta does not carry the operators' slot: no page of theirs can have loaded it.
  await editor.post(SLOT_EVENTS_PATH).send({ events: ruled }).expect(204);
  expect((await stats(operator)).stats).toEqual([]);

  await operator.post(SLOT_EVENTS_PATH).send({ events: ruled }).expect(204);
  const rows = (await stats(operator)).stats;
  expect(rows.map((row) => [row.component, row.location, row.loads, row.failed])).toEqual([
    ['InvoiceNote', PROTECTED, 2, 2],
  ]);
});

it('refuses bodies outside the contract with 400', async () => {
  const client = request(testApp.app.handler);
  const [valid] = slotLoadEvents(SLOT, 1);
  for (const body of [
    {},
    { events: [] },
    { events: slotLoadEvents(SLOT, 51) },
    { events: [{ ...valid, outcome: 'exploded' }] },
    { events: [{ ...valid, phase: 'render' }] },
    { events: [{ ...valid, loadMs: -1 }] },
    { events: [{ ...valid, loadMs: 'slow' }] },
  ]) {
    const response = await client.post(SLOT_EVENTS_PATH).send(body);
    expect([response.status, response.body.error?.code]).toEqual([400, 'invalid_request']);
  }
  // The refusal names the field, so a client sending its own events learns what to mend.
  const withoutPhase: Record<string, unknown> = { ...valid };
  delete withoutPhase.phase;
  for (const [event, message] of [
    [withoutPhase, 'Event 0 is not a slot load event: "phase" must be null, or for a failed or timed-out load one of'],
    [{ ...valid, outcome: 'exploded' }, 'Event 0 is not a slot load event: "outcome" must be one of rendered'],
    [{ ...valid, loadMs: 'slow' }, 'Event 0 is not a slot load event: "loadMs" must be a number of milliseconds'],
  ] as const) {
    const response = await client.post(SLOT_EVENTS_PATH).send({ events: [event] });
    expect(response.body.error?.message).toContain(message);
  }
});

it('refuses a request from another site with 403', async () => {
  const response = await request(testApp.app.handler)
    .post(SLOT_EVENTS_PATH)
    .set('Sec-Fetch-Site', 'cross-site')
    .set('Origin', 'https://evil.example')
    .send({ events: slotLoadEvents(SLOT, 1) });
  expect([response.status, response.body.error?.code]).toEqual([403, 'forbidden']);
});

it('refuses a body over the 12 KiB cap with 413, and other content types with 415', async () => {
  const client = request(testApp.app.handler);
  const big = { events: slotLoadEvents(SLOT, 1), padding: 'x'.repeat(13 * 1024) };
  expect((await client.post(SLOT_EVENTS_PATH).send(big)).status).toBe(413);
  const text = await client.post(SLOT_EVENTS_PATH).set('Content-Type', 'text/plain').send('{"events":[]}');
  expect(text.status).toBe(415);
});

it('refuses a session over its events per minute with 429 and Retry-After, other sessions go on', async () => {
  const operator = await signedInAgent(testApp.app, 'operator');
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 50) })
    .expect(204);
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 50) })
    .expect(204);
  const over = await operator.post(SLOT_EVENTS_PATH).send({ events: slotLoadEvents(SLOT, 50) });
  expect([over.status, over.body.error?.code]).toEqual([429, 'too_many_requests']);
  expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  await addUser(testApp.app, 'other', DEMO_PASSWORD, ['acme']);
  const other = await signedInAgent(testApp.app, 'other');
  await other
    .post(SLOT_EVENTS_PATH)
    .send({ events: slotLoadEvents(SLOT, 50) })
    .expect(204);
  expect((await stats(operator)).stats[0]?.loads).toBe(150);
});

it('refuses an address over its events per minute with 429, signed in or not', async () => {
  const client = request(testApp.app.handler);
  for (let sent = 0; sent < 1000; sent += 50) {
    await client
      .post(SLOT_EVENTS_PATH)
      .send({ events: slotLoadEvents(SLOT, 50) })
      .expect(204);
  }
  const over = await client.post(SLOT_EVENTS_PATH).send({ events: slotLoadEvents(SLOT, 1) });
  expect(over.status).toBe(429);
});

it('counts an IPv6 client by its /64: new addresses of the same network buy no more events', async () => {
  await testApp.close();
  testApp = await createTestApp({
    trustProxy: 'loopback',
    env: { REMOTES_CONFIG: origin.remotesConfig },
    slotEvents: { eventsPerSessionPerMinute: 120, eventsPerAddressPerMinute: 100, canary: { enabled: false } },
    ...placedSlotsOptions([SLOT]),
  });
  const client = request(testApp.app.handler);
  const from = (address: string, count: number) =>
    client
      .post(SLOT_EVENTS_PATH)
      .set('X-Forwarded-For', address)
      .send({ events: slotLoadEvents(SLOT, count) });
  expect((await from('2001:db8:1:2::1', 50)).status).toBe(204);
  expect((await from('2001:db8:1:2::2', 50)).status).toBe(204);
  expect((await from('2001:db8:1:2:ffff::3', 1)).status).toBe(429);
  // Another network is another client.
  expect((await from('2001:db8:1:3::1', 50)).status).toBe(204);
});

it('shows the statistics to signed-in staff only, for a known window', async () => {
  expect((await request(testApp.app.handler).get(SLOT_STATS_PATH)).status).toBe(401);
  const operator = await signedInAgent(testApp.app, 'operator');
  expect((await operator.get(`${SLOT_STATS_PATH}?window=1w`)).status).toBe(400);
  expect((await operator.get(`${SLOT_STATS_PATH}?window=constructor`)).status).toBe(400);
  // Written as an array or misspelt, it was ignored and the hour's figures answered as though asked for.
  for (const query of ['window[]=1d', 'windw=1d']) {
    const refused = await operator.get(`${SLOT_STATS_PATH}?${query}`).expect(400);
    expect(refused.body.error.message).toMatch(
      /^Unknown query parameter "\w+(\[\])?": the slot statistics route takes only "window"\.$/,
    );
  }
  expect(((await operator.get(SLOT_STATS_PATH).expect(200)).body as SlotStatsPayload).window).toBe('1h');
  // An account that no longer belongs to any tenant is refused them, as everything else a member reads.
  const user = await testApp.app.users.findByUsername('operator');
  await testApp.app.tenants.setMemberships(user!.id, []);
  const refused = await operator.get(SLOT_STATS_PATH).expect(403);
  expect(refused.body.error.message).toBe(NO_TENANT_MESSAGE);
});

it("leaves out a running canary's tag sent by a visitor the canary is not served to", async () => {
  const { operator, visitor } = await canaryForBeta();
  const remotes = (await visitor.get('/api/remotes').expect(200)).body as {
    remotes: { name: string; releaseTag?: string }[];
  };
  const canaryTag = remotes.remotes.find((remote) => remote.name === 'team_billing')?.releaseTag;
  expect(canaryTag).toMatch(/^2\.0\.0\./);
  // The canary's own visitor counts under it; the same tag from the operator (served 1.0.0: tenant acme is not in the
  // canary) is left out, or anyone could fail the canary into its rollback with a tag copied from another's page.
  const tagged = (count: number) =>
    slotLoadEvents(SLOT, count, count).map((event) => ({ ...event, releaseTag: canaryTag }));
  await visitor
    .post(SLOT_EVENTS_PATH)
    .send({ events: tagged(2) })
    .expect(204);
  await operator
    .post(SLOT_EVENTS_PATH)
    .send({ events: tagged(5) })
    .expect(204);
  const { stats: rows } = await stats(operator);
  expect(rows.map((row) => [row.release, row.loads, row.failed])).toEqual([['2.0.0', 2, 2]]);
});

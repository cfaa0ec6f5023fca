/**
 * REMOTES_CONFIG through the whole app, with a remote's origin answering over real HTTP: placement, the slot check at
 * start and on reload, reloading, slot details, the inspector. Above 300 lines for one reason: every case uses the
 * origin and configuration-file fixtures at its top, which a split would repeat.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { FORM_FIELD_KEYWORD, REMOTE_DESCRIPTOR_FILE, Slot, SlotLocation } from '../../shared';
import {
  addUser,
  createTestApp,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { Field } from '../resources/field';
import { Resource } from '../resources/resource';
import { RemotesConfigError } from '../config/remotes-config-error';

/** A remote's origin: serves its slots-remote.json (or an error, or nothing at all) over real HTTP. */
interface RemoteOrigin {
  url: string;
  answer: 'descriptor' | 'error' | 'hang';
  descriptor: Record<string, unknown>;
  requests: number;
  close(): Promise<void>;
}

async function startRemoteOrigin(descriptor: Record<string, unknown>): Promise<RemoteOrigin> {
  const hanging: http.ServerResponse[] = [];
  const origin = { answer: 'descriptor', descriptor, requests: 0 } as RemoteOrigin;
  const server = http.createServer((req, res) => {
    origin.requests++;
    if (req.url !== `/billing/${REMOTE_DESCRIPTOR_FILE}` || origin.answer === 'error') {
      res.writeHead(origin.answer === 'error' ? 500 : 404).end();
    } else if (origin.answer === 'hang') {
      hanging.push(res);
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(origin.descriptor));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return origin;
}

const BILLING = {
  name: 'team_billing',
  components: ['InvoiceBanner', 'InvoiceField'],
  formComponents: ['InvoiceField'],
};

let dir: TempDir;
let origin: RemoteOrigin;
let testApp: TestApp | null = null;
let configFile: string;

beforeEach(async () => {
  dir = makeTempDir('slots-remotes-config-');
  configFile = path.join(dir.path, 'remotes.json');
  origin = await startRemoteOrigin(BILLING);
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  await origin.close();
  dir.remove();
});

function writeConfig(config: unknown): void {
  fs.writeFileSync(configFile, typeof config === 'string' ? config : JSON.stringify(config));
}

function billing(slots: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { name: 'team_billing', entry: `${origin.url}/billing/mf-manifest.json`, slots, ...extra };
}

async function start(configure?: TestAppOptions['configure']): Promise<TestApp> {
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: configFile },
    remoteDescriptorTimeoutMs: 300,
    ...(configure ? { configure } : {}),
  });
  return testApp;
}

describe('placement by REMOTES_CONFIG', () => {
  it('reads a kit-built remote from its descriptor and places its slots: public on /slots, protected only on /meta', async () => {
    writeConfig({
      remotes: [
        billing({
          'global-before-content': [{ component: 'InvoiceBanner', props: { amountDue: 12.5, currency: 'EUR' } }],
          'dashboard-before-cards': [{ component: 'InvoiceBanner', props: { amountDue: 99 } }],
        }),
      ],
    });
    const { app } = await start((app) =>
      app.registerSlots({ 'global-before-content': Slot.make('InvoiceField', { order: 1 }) }),
    );

    const remotes = await request(app.handler).get('/api/remotes').expect(200);
    expect(remotes.body.remotes).toContainEqual({ ...BILLING, entry: `${origin.url}/billing/mf-manifest.json` });

    const slots = await request(app.handler).get('/slots').expect(200);
    // Code registrations first, then the file's, in file order.
    expect(slots.body.slots).toEqual({
      'global-before-content': [
        { component: 'InvoiceField', props: { order: 1 } },
        { component: 'InvoiceBanner', props: { amountDue: 12.5, currency: 'EUR' } },
      ],
    });
    expect(JSON.stringify(slots.body)).not.toContain('dashboard-before-cards');

    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const meta = await agent.get('/meta').expect(200);
    expect(meta.body.slots['dashboard-before-cards']).toEqual([
      { component: 'InvoiceBanner', props: { amountDue: 99 } },
    ]);
    // The page's policy lets the host load the remote from its origin.
    const page = await request(app.handler).get('/remotes/none').set('Accept', 'text/html');
    expect(page.headers['content-security-policy']).toContain(origin.url);
  });

  it('lets a built-in or listed remote be named without entry to add slots', async () => {
    writeConfig({
      remotes: [
        {
          name: 'team_clock',
          entry: `${origin.url}/clock/remoteEntry.js`,
          components: ['Clock'],
          slots: { 'login-before-form': { component: 'Clock', props: { zone: 'UTC' } } },
        },
      ],
    });
    const { app } = await start();
    const slots = await request(app.handler).get('/slots').expect(200);
    expect(slots.body.slots['login-before-form']).toEqual([{ component: 'Clock', props: { zone: 'UTC' } }]);
  });

  it('starts without a remote that does not answer, logs it by name, and adds its slots once it answers', async () => {
    origin.answer = 'hang';
    writeConfig({ remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner' }] })] });
    const lines: string[] = [];
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      remoteDescriptorTimeoutMs: 200,
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    });
    const { app } = testApp;
    expect((await request(app.handler).get('/slots')).body.slots).toEqual({});
    expect((await request(app.handler).get('/api/remotes')).body.remotes).toEqual([]);
    expect(lines.join('')).toMatch(/Remote \\"team_billing\\" is not available \(.*did not answer within 200 ms\)/);

    origin.answer = 'descriptor';
    await app.remotes.registry.refresh();
    expect((await request(app.handler).get('/slots')).body.slots['global-before-content']).toEqual([
      { component: 'InvoiceBanner', props: {} },
    ]);
  });

  it('fails the start when the answering remote does not provide a configured component', async () => {
    writeConfig({
      remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner' }, { component: 'InvoiceBaner' }] })],
    });
    await expect(start()).rejects.toThrow(
      'Slots cannot render as registered: 1 problem (slot at location[position] (source, remote): problem):\n' +
        '  - InvoiceBaner at global-before-content[1] (configuration, remote "team_billing"): remote "team_billing" ' +
        'provides no component "InvoiceBaner" (it provides InvoiceBanner, InvoiceField)',
    );
  });

  it.each([
    [
      'two of its slots share an id',
      [
        { component: 'InvoiceBanner', id: 'x' },
        { component: 'InvoiceField', id: 'x' },
      ],
      1,
      'x',
    ],
    ["its slot takes the id of code's", [{ component: 'InvoiceField', id: 'InvoiceBanner' }], 0, 'InvoiceBanner'],
  ])(
    'blames the file when %s at a location code registers at too, not the code',
    async (_case, slots, position, id) => {
      writeConfig({ remotes: [billing({ 'dashboard-before-cards': slots })] });
      const started = start((app) => app.registerSlots({ 'dashboard-before-cards': [Slot.make('InvoiceBanner')] }));
      await expect(started).rejects.toThrow(
        `  - ${slots[position]!.component} at dashboard-before-cards[${position}] (configuration, remote ` +
          `"team_billing"): two slots at "dashboard-before-cards" have the id "${id}"`,
      );
      await expect(started).rejects.not.toThrow(/registerSlots/);
    },
  );

  it('does not log that a slot is left out when that slot stops the start', async () => {
    writeConfig({ remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBaner' }] })] });
    const lines: string[] = [];
    await expect(
      createTestApp({
        env: { REMOTES_CONFIG: configFile },
        remoteDescriptorTimeoutMs: 300,
        logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      }),
    ).rejects.toThrow('Slots cannot render as registered: 1 problem');
    expect(lines.join('')).toContain('Remote \\"team_billing\\" answered');
    expect(lines.join('')).not.toMatch(/left out/);
  });

  it('leaves out a slot whose component a remote answering after the start does not provide, and says so', async () => {
    origin.answer = 'hang';
    writeConfig({
      remotes: [
        billing({
          'global-before-content': [{ component: 'InvoiceBaner' }, { component: 'InvoiceBanner' }],
        }),
      ],
    });
    const lines: string[] = [];
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      remoteDescriptorTimeoutMs: 200,
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    });
    origin.answer = 'descriptor';
    await testApp.app.remotes.registry.refresh();
    const slots = await request(testApp.app.handler).get('/slots').expect(200);
    expect(slots.body.slots['global-before-content'].map((slot: Slot) => slot.component)).toEqual(['InvoiceBanner']);
    expect(lines.join('')).toContain(
      'InvoiceBaner at global-before-content[0] (configuration, remote \\"team_billing\\"): ' +
        'remote \\"team_billing\\" provides no component \\"InvoiceBaner\\" (it provides InvoiceBanner, InvoiceField)' +
        '\\nThe REMOTES_CONFIG slots among them are left out until that changes.',
    );
  });

  it.each([
    [
      'an unknown location',
      { 'global-nowhere': [{ component: 'InvoiceBanner' }] },
      /remote "team_billing" \("team_billing"\)|"team_billing".*unknown location "global-nowhere"/,
    ],
    [
      'props that are not a plain object',
      { 'global-before-content': [{ component: 'InvoiceBanner', props: [1] }] },
      /"team_billing".*slots\["global-before-content"\]\[0\].*props must be a plain object/,
    ],
    [
      'a prop React keeps for itself (key)',
      { 'global-before-content': [{ component: 'InvoiceBanner', props: { key: 'banner-1' } }] },
      /"team_billing".*slots\["global-before-content"\]\[0\].*the prop "key" is reserved by React/,
    ],
    [
      'an item without component',
      { 'login-before-form': [{ props: {} }] },
      /"team_billing".*slots\["login-before-form"\]\[0\] must be \{ "component"/,
    ],
  ])('fails the start on %s, naming the remote and the location', async (_what, slots, message) => {
    writeConfig({ remotes: [billing(slots)] });
    await expect(start()).rejects.toThrow(RemotesConfigError);
    await expect(start()).rejects.toThrow(message);
  });

  it('fails the start when a listed remote is given a slot for a component it does not provide', async () => {
    writeConfig({
      remotes: [
        {
          name: 'team_clock',
          entry: `${origin.url}/clock/remoteEntry.js`,
          components: ['Clock'],
          slots: { 'login-before-form': [{ component: 'Calendar' }] },
        },
      ],
    });
    await expect(start()).rejects.toThrow(
      /"team_clock".*slot "Calendar" at "login-before-form": remote "team_clock" provides no component "Calendar"/,
    );
  });
});

describe('the props contract, checked at start and on reload', () => {
  /** team_billing as the kit builds it: each component with its props schema. */
  const BILLING_WITH_SCHEMAS = {
    ...BILLING,
    props: {
      InvoiceBanner: {
        type: 'object',
        additionalProperties: false,
        properties: { amountDue: { type: 'number' }, currency: { type: 'string' } },
        required: ['amountDue'],
      },
      InvoiceField: { type: 'object', properties: {} },
    },
  };

  beforeEach(() => {
    origin.descriptor = BILLING_WITH_SCHEMAS;
  });

  it('fails the start with one message listing every slot of code and configuration that breaks the contract', async () => {
    writeConfig({
      remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner', props: { currency: 'EUR' } }] })],
    });
    const started = start((app) =>
      app.registerSlots({
        'dashboard-before-cards': [
          Slot.make('InvoiceBanner', { amountDue: 'lots' }),
          Slot.make('InvoiceBaner', { amountDue: 1 }),
        ],
      }),
    );
    await expect(started).rejects.toThrow(
      'Slots cannot render as registered: 3 problems (slot at location[position] (source, remote): problem):\n' +
        '  - InvoiceBanner at dashboard-before-cards[0] (code, remote "team_billing"): props.amountDue must be ' +
        'number, got "lots"\n' +
        '  - InvoiceBaner at dashboard-before-cards[1] (code): no remote provides "InvoiceBaner"; did you mean ' +
        '"InvoiceBanner" (remote "team_billing")?\n' +
        '  - InvoiceBanner at global-before-content[0] (configuration, remote "team_billing"): props.amountDue is ' +
        'required (number)',
    );
  });

  it('starts when every slot matches, and refuses a reload whose slots break the contract', async () => {
    writeConfig({
      remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner', props: { amountDue: 1 } }] })],
    });
    const lines: string[] = [];
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      configure: (app) => app.registerSlots({ 'header-banner': Slot.make('InvoiceBanner', { amountDue: 2 }) }),
    });
    const { app } = testApp;
    const before = (await request(app.handler).get('/slots').expect(200)).body;

    writeConfig({
      remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner', props: { amountDue: '1' } }] })],
    });
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    expect(lines.join('')).toContain(
      'InvoiceBanner at global-before-content[0] (configuration, remote \\"team_billing\\"): props.amountDue must ' +
        'be number, got \\"1\\"',
    );
    expect((await request(app.handler).get('/slots').expect(200)).body).toEqual(before);
    // Switching off the remote code slots use is the operator's choice: taken, and those slots are reported.
    writeConfig({ remotes: [{ name: 'team_billing', enabled: false, components: BILLING.components }] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(true);
    expect(lines.join('')).toContain(
      'InvoiceBanner at header-banner[0] (code, remote \\"team_billing\\"): remote \\"team_billing\\" provides ' +
        '\\"InvoiceBanner\\" but is disabled',
    );
  });

  it('checks the slots of a remote that answers after the start, leaving out those that break the contract', async () => {
    origin.answer = 'hang';
    writeConfig({
      remotes: [
        billing({
          'global-before-content': [
            { component: 'InvoiceBanner', props: { amountDue: 'lots' } },
            { component: 'InvoiceBanner', props: { amountDue: 3 } },
          ],
        }),
      ],
    });
    testApp = await start();
    const { app } = testApp;
    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const waiting = (await agent.get('/api/slots/inspect').expect(200)).body;
    expect(waiting.locations['global-before-content'][0].problems).toEqual([
      expect.stringMatching(/^remote "team_billing" is not available: .* did not answer within 300 ms$/),
    ]);

    origin.answer = 'descriptor';
    await app.remotes.registry.refresh();
    expect((await request(app.handler).get('/slots').expect(200)).body.slots['global-before-content']).toEqual([
      { component: 'InvoiceBanner', props: { amountDue: 3 } },
    ]);
    const inspection = (await agent.get('/api/slots/inspect').expect(200)).body;
    // The slot left out is on no page: neither its props nor the value its problem would quote are shown.
    expect(inspection.locations['global-before-content'].map((slot: { problems: string[] }) => slot.problems)).toEqual([
      ['props.amountDue must be number'],
      [],
    ]);
    expect(inspection.locations['global-before-content'].map((slot: { props: unknown }) => slot.props)).toEqual([
      null,
      { amountDue: 3 },
    ]);
    expect(JSON.stringify(inspection)).not.toContain('lots');
    expect(inspection.remotes[0]).toMatchObject({
      status: 'answered',
      schemaComponents: ['InvoiceBanner', 'InvoiceField'],
    });
  });

  it('leaves out a form slot of a remote answering after the start whose props name a field its resource lacks', async () => {
    // As the start, a reload, a draft and a release refuse it (slot-check/form-field-props.ts): served, it would read
    // nothing, and what it wrote would be dropped at the save.
    origin.answer = 'hang';
    origin.descriptor = {
      ...BILLING_WITH_SCHEMAS,
      props: {
        ...BILLING_WITH_SCHEMAS.props,
        InvoiceField: {
          type: 'object',
          properties: { field: { type: 'string', [FORM_FIELD_KEYWORD]: true } },
          required: ['field'],
          additionalProperties: false,
        },
      },
    };
    writeConfig({
      remotes: [
        billing(
          {},
          {
            forms: {
              invoices: [
                { component: 'InvoiceField', props: { field: 'amout' } },
                { component: 'InvoiceField', props: { field: 'amount' } },
              ],
            },
          },
        ),
      ],
    });
    const lines: string[] = [];
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      remoteDescriptorTimeoutMs: 200,
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      configure: (app) =>
        app.registerResource(
          new (class extends Resource {
            readonly name = 'invoices';
            readonly label = 'Invoices';
            fields() {
              return [Field.text('title'), Field.text('label'), Field.number('amount')];
            }
          })(),
        ),
    });
    const { app } = testApp;
    origin.answer = 'descriptor';
    await app.remotes.registry.refresh();

    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const form = (await agent.get('/api/resources/invoices').expect(200)).body.resource.fields as Array<{
      name?: string;
      component?: string;
      props?: unknown;
    }>;
    expect(form.map((item) => item.name ?? `${item.component}(${JSON.stringify(item.props)})`)).toEqual([
      'title',
      'label',
      'amount',
      'InvoiceField({"field":"amount"})',
    ]);
    expect(lines.join('')).toContain(
      'InvoiceField at resource form \\"invoices\\"[end] (configuration, remote \\"team_billing\\"): props.field must ' +
        'name a field of resource \\"invoices\\" (did you mean \\"amount\\"? its fields: title, label, amount), got \\"amout\\"' +
        '\\nThe REMOTES_CONFIG slots among them are left out until that changes.',
    );
    // Listed as a configured form slot left out is: on no form, so neither its props nor the value are shown.
    const inspection = (await agent.get('/api/slots/inspect').expect(200)).body;
    expect(inspection.forms.invoices).toEqual([
      expect.objectContaining({
        component: 'InvoiceField',
        props: null,
        position: -1,
        problems: [
          'props.field must name a field of resource "invoices" (did you mean "amount"? its fields: title, label, amount)',
        ],
      }),
      expect.objectContaining({ component: 'InvoiceField', props: { field: 'amount' }, position: 3, problems: [] }),
    ]);
  });

  it('serves the schemas to a development host at GET /api/slots/schemas, and not at all in production', async () => {
    writeConfig({
      remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner', props: { amountDue: 3 } }] })],
    });
    const { app } = await start();
    // Signed out: the schemas of the components the public slots name (the sign-in page's are checked too), no other.
    const anonymous = await request(app.handler).get('/api/slots/schemas').expect(200);
    expect(anonymous.body).toEqual({
      schemas: { InvoiceBanner: BILLING_WITH_SCHEMAS.props.InvoiceBanner },
      partial: true,
    });
    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const schemas = await agent.get('/api/slots/schemas').expect(200);
    expect(schemas.body).toEqual({ schemas: BILLING_WITH_SCHEMAS.props });
    await testApp?.close();
    testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile }, nodeEnv: 'production' });
    await request(testApp.app.handler).get('/api/slots/schemas').expect(404);
  });
});

describe('reloading REMOTES_CONFIG', () => {
  it('takes a valid new file for the next request, and keeps the previous configuration when the new one is bad', async () => {
    writeConfig({ remotes: [billing({ 'global-before-content': [{ component: 'InvoiceBanner', props: { n: 1 } }] })] });
    const { app } = await start();
    const sessionAgent = request.agent(app.handler);
    const before = await sessionAgent.get('/slots').expect(200);
    expect(before.body.slots['global-before-content'][0].props).toEqual({ n: 1 });

    writeConfig({ remotes: [billing({ 'login-before-form': [{ component: 'InvoiceBanner', props: { n: 2 } }] })] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(true);
    const after = await sessionAgent.get('/slots').expect(200);
    expect(after.body.slots).toEqual({
      'login-before-form': [{ component: 'InvoiceBanner', props: { n: 2 } }],
    });

    writeConfig({ remotes: [billing({ 'nowhere-at-all': [{ component: 'InvoiceBanner' }] })] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    writeConfig('{ not json');
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    expect((await sessionAgent.get('/slots').expect(200)).body).toEqual(after.body);
    expect(SlotLocation.from('login-before-form').isPublic()).toBe(true);
  });
});

describe("failed slots' details follow the server's mode", () => {
  it.each([
    ['development', true],
    ['test', true],
    ['production', false],
  ])('NODE_ENV=%s: GET /api/remotes and the boot data say showSlotDetails %s', async (nodeEnv, shown) => {
    writeConfig({ remotes: [] });
    const built = path.join(dir.path, 'dist', 'host');
    fs.mkdirSync(built, { recursive: true });
    fs.writeFileSync(
      path.join(built, 'index.html'),
      '<html><head><meta name="slots-remote-hints"></head><body><div id="root"></div></body></html>',
    );
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      nodeEnv,
      distDir: path.join(dir.path, 'dist'),
    });
    const remotes = await request(testApp.app.handler).get('/api/remotes').expect(200);
    expect(remotes.body.showSlotDetails).toBe(shown);
    const page = await request(testApp.app.handler).get('/login').expect(200);
    const boot = /id="slots-boot-data">(.*?)<\/script>/.exec(page.text)?.[1];
    expect(JSON.parse(boot ?? '{}').showSlotDetails).toBe(shown);
  });
});

/** A resource whose form holds a form component of team_billing and a component that is not one. */
class InvoicesResource extends Resource {
  readonly name = 'invoices';
  readonly label = 'Invoices';

  fields() {
    return [
      Field.text('title', { required: true }),
      Slot.make('InvoiceField', { order: 1 }),
      Field.text('label', { required: true }),
      Slot.make('InvoiceBanner', { amountDue: 3 }),
    ];
  }
}

describe('GET /api/slots/inspect', () => {
  it('lists every slot with its source, remote, visibility and problems, and every remote with its status', async () => {
    // team_billing answers only after the start: a configured component it lacks would otherwise fail the start.
    origin.answer = 'hang';
    writeConfig({
      remotes: [
        billing({ 'global-before-content': [{ component: 'InvoiceBanner' }, { component: 'InvoiceBaner' }] }),
        {
          name: 'team_down',
          entry: `${origin.url}/down/mf-manifest.json`,
          slots: { 'dashboard-after-cards': [{ component: 'DownWidget', props: { n: 1 } }] },
        },
      ],
    });
    const { app } = await start((app) =>
      app
        .registerSlots({
          'dashboard-before-cards': [Slot.make('InvoiceBanner', { amountDue: 3 }), Slot.make('Nobody', {})],
        })
        .registerResource(new InvoicesResource()),
    );
    origin.answer = 'descriptor';
    await app.remotes.registry.refresh();
    await request(app.handler).get('/api/slots/inspect').expect(401);

    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const inspection = await agent.get('/api/slots/inspect').expect(200);
    expect(inspection.headers['cache-control']).toMatch(/no-store/);
    expect(inspection.body.locations).toEqual({
      'dashboard-before-cards': [
        {
          component: 'InvoiceBanner',
          id: 'InvoiceBanner',
          props: { amountDue: 3 },
          remote: 'team_billing',
          source: 'code',
          visibility: 'protected',
          problems: [],
        },
        {
          component: 'Nobody',
          id: 'Nobody',
          props: {},
          remote: null,
          source: 'code',
          visibility: 'protected',
          problems: ['no remote known now provides "Nobody" (not answering: team_down)'],
        },
      ],
      'global-before-content': [
        {
          component: 'InvoiceBanner',
          id: 'InvoiceBanner',
          props: {},
          remote: 'team_billing',
          source: 'configuration',
          visibility: 'public',
          problems: [],
        },
        {
          component: 'InvoiceBaner',
          props: null,
          remote: 'team_billing',
          source: 'configuration',
          visibility: 'public',
          problems: [
            'remote "team_billing" provides no component "InvoiceBaner" (it provides InvoiceBanner, InvoiceField)',
          ],
        },
      ],
      'dashboard-after-cards': [
        {
          component: 'DownWidget',
          props: null,
          remote: 'team_down',
          source: 'configuration',
          visibility: 'protected',
          problems: [`remote "team_down" is not available: ${origin.url}/… answered 404`],
        },
      ],
    });
    // Form slots, per resource, checked as the start-up checks them: a form renders only form components.
    expect(inspection.body.forms).toEqual({
      invoices: [
        {
          position: 1,
          component: 'InvoiceField',
          props: { order: 1 },
          remote: 'team_billing',
          source: 'code',
          visibility: 'protected',
          problems: [],
        },
        {
          position: 3,
          component: 'InvoiceBanner',
          props: { amountDue: 3 },
          remote: 'team_billing',
          source: 'code',
          visibility: 'protected',
          problems: [
            'remote "team_billing" does not list "InvoiceBanner" among its formComponents, so a form cannot ' +
              'render it (its form components: InvoiceField; its team lists a component written for forms in ' +
              'formComponents in its remote.ts)',
          ],
        },
      ],
    });
    expect(inspection.body.remotes).toEqual([
      {
        name: 'team_billing',
        entry: `${origin.url}/billing/mf-manifest.json`,
        status: 'answered',
        components: BILLING.components,
        formComponents: BILLING.formComponents,
        schemaComponents: [],
      },
      {
        name: 'team_down',
        // Not registered by the host: only the origin its pages' Content-Security-Policy names.
        entry: origin.url,
        status: 'bad-answer',
        reason: `${origin.url}/… answered 404`,
        components: [],
        formComponents: [],
        schemaComponents: [],
      },
    ]);
  });

  it("shows a user of any tenant no more than their own pages carry: /meta's props, public entries", async () => {
    writeConfig({
      remotes: [
        billing({ 'dashboard-before-cards': [{ component: 'InvoiceBanner', props: { apiKey: 'pk-shown-on-pages' } }] }),
        {
          name: 'team_down',
          entry: `${origin.url}/private/path/mf-manifest.json`,
          slots: { 'dashboard-after-cards': [{ component: 'DownWidget', props: { apiKey: 'sk-never-on-a-page' } }] },
        },
      ],
    });
    const { app } = await start();
    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    await addUser(app, 'bob', 'correct horse battery', ['globex']);
    for (const user of ['ada', 'bob']) {
      const agent = await signedInAgent(app, user, 'correct horse battery');
      const meta = (await agent.get('/meta').expect(200)).body;
      const inspection = await agent.get('/api/slots/inspect').expect(200);
      // Every slot /meta sends this user is shown with exactly the props /meta sends.
      for (const [location, entries] of Object.entries(meta.slots as Record<string, Array<{ props: unknown }>>)) {
        expect(
          inspection.body.locations[location]
            .filter((slot: { props: unknown }) => slot.props !== null)
            .map((slot: { props: unknown }) => slot.props),
        ).toEqual(entries.map((entry) => entry.props));
      }
      expect(inspection.body.locations['dashboard-after-cards']).toEqual([
        expect.objectContaining({ component: 'DownWidget', props: null }),
      ]);
      expect(inspection.text).not.toContain('sk-never-on-a-page');
      expect(inspection.text).not.toContain('/private/path');
    }

    // An account taken out of every tenant while signed in gets no /meta, and no inspection either.
    await addUser(app, 'eve', 'correct horse battery', ['acme']);
    const outsider = await signedInAgent(app, 'eve', 'correct horse battery');
    const eve = await app.users.findByUsername('eve');
    await app.tenants.setMemberships(eve!.id, []);
    const meta = await outsider.get('/meta');
    expect(meta.status).toBe(403);
    const inspection = await outsider.get('/api/slots/inspect');
    expect(inspection.status).toBe(meta.status);
    expect(inspection.body.error.code).toBe(meta.body.error.code);
  });
});

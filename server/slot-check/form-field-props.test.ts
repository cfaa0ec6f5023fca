import fs from 'node:fs';
import path from 'node:path';
import { FORM_FIELD_KEYWORD, Slot, type FormItem, type PlacementsDraftPayload } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import {
  addUser,
  createTestApp,
  signedInAgent,
  signedInOperator,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { Field } from '../resources/field';
import { Relation } from '../resources/relation';
import { Resource } from '../resources/resource';
import { SlotContractError } from '../slots/slot-contract';

/**
 * A form slot's props that name a field of its form, by a prop its component's schema marks with FORM_FIELD_KEYWORD,
 * against the fields of the resource it sits in: at start, on a reload, in the inspector.
 */

const FIELD_NAME = { type: 'string', minLength: 1, [FORM_FIELD_KEYWORD]: true };
const BILLING = {
  name: 'team_billing',
  components: ['InvoiceField', 'FieldsSummary'],
  formComponents: ['InvoiceField', 'FieldsSummary'],
  props: {
    // `suffix` is a string too, but names no field: it is never held against the form.
    InvoiceField: {
      type: 'object',
      properties: { field: FIELD_NAME, suffix: { type: 'string' } },
      required: ['field'],
      additionalProperties: false,
    },
    FieldsSummary: {
      type: 'object',
      properties: {
        fields: { type: 'array', items: FIELD_NAME },
        main: { anyOf: [FIELD_NAME, { type: 'null' }] },
      },
      additionalProperties: false,
    },
  },
};

/** Title, label, amount and the author relation's key: the fields a form slot may name. */
function invoices(...slots: Slot[]): Resource {
  return new (class extends Resource {
    readonly name = 'invoices';
    readonly label = 'Invoices';
    fields() {
      return [
        Field.text('title', { required: true }),
        ...slots,
        Field.text('label', { required: true }),
        Field.number('amount'),
        Field.relation('author'),
      ];
    }
    override relations() {
      return [Relation.belongsTo('author', { label: 'Author', resource: 'authors', foreignKey: 'authorId' })];
    }
  })();
}

class AuthorsResource extends Resource {
  readonly name = 'authors';
  readonly label = 'Authors';
  fields() {
    return [Field.text('title'), Field.text('label')];
  }
}

let dist: FixtureDist;
let configFile: string;
let testApp: TestApp | null = null;

beforeEach(() => {
  dist = createFixtureDist();
  dist.addRemote(BILLING);
  configFile = path.join(dist.dir, 'remotes.json');
  writeForms({});
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dist.remove();
});

function writeForms(forms: Record<string, unknown>): void {
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', forms }] }));
}

/** The app with REMOTES_CONFIG's form slots and the invoices resource holding `slots` in code. */
async function start(...slots: Slot[]): Promise<TestApp> {
  return startWith({}, slots);
}

/** As start(), but a problem of a slot is logged and the slot left out, not the start refused. */
async function startLoggingProblems(...slots: Slot[]): Promise<TestApp> {
  return startWith({ slotProblems: 'log' }, slots);
}

async function startWith(options: Pick<TestAppOptions, 'slotProblems'>, slots: Slot[]): Promise<TestApp> {
  testApp = await createTestApp({
    ...options,
    env: { REMOTES_CONFIG: configFile },
    distDir: dist.dir,
    configure: (app) => {
      app.registerResource(new AuthorsResource());
      app.registerResource(invoices(...slots));
    },
  });
  return testApp;
}

/** A staff member of acme, signed in. */
async function signedInStaff(app: TestApp['app']) {
  await addUser(app, 'ada', 'correct horse battery', ['acme']);
  return signedInAgent(app, 'ada', 'correct horse battery');
}

const FIELDS = 'its fields: title, label, amount, authorId';

describe('a form slot whose props name a field', () => {
  it('starts when every marked prop names a field of its resource, a relation field by its key', async () => {
    await expect(
      start(
        Slot.untyped('InvoiceField', { field: 'title', suffix: 'not a field' }),
        Slot.untyped('InvoiceField', { field: 'authorId' }),
        Slot.untyped('FieldsSummary', { fields: ['label', 'amount'], main: null }),
      ),
    ).resolves.toBeDefined();
  });

  it.each([
    [
      'a prop',
      Slot.untyped('InvoiceField', { field: 'titel' }),
      `InvoiceField at resource form "invoices"[1] (code, remote "team_billing"): props.field must name a field of resource "invoices" (did you mean "title"? ${FIELDS}), got "titel"`,
    ],
    [
      'an item of a list, with no near name',
      Slot.untyped('FieldsSummary', { fields: ['label', 'total'] }),
      `FieldsSummary at resource form "invoices"[1] (code, remote "team_billing"): props.fields[1] must name a field of resource "invoices" (${FIELDS}), got "total"`,
    ],
    [
      'a branch of a union, a relation by its name',
      Slot.untyped('FieldsSummary', { main: 'author' }),
      `FieldsSummary at resource form "invoices"[1] (code, remote "team_billing"): props.main must name a field of resource "invoices" (did you mean "authorId"? ${FIELDS}), got "author"`,
    ],
  ])(
    'refuses the start when %s names a field the resource lacks, naming the resource, slot and field',
    async (_case, slot, line) => {
      const refused = start(slot);
      await expect(refused).rejects.toThrow(SlotContractError);
      await expect(refused).rejects.toThrow(line);
    },
  );

  it('refuses the start for a form slot REMOTES_CONFIG places, and a reload bringing one', async () => {
    writeForms({ invoices: [{ component: 'InvoiceField', props: { field: 'amout' }, position: { after: 'title' } }] });
    await expect(start()).rejects.toThrow(
      `InvoiceField at resource form "invoices"[after "title"] (configuration, remote "team_billing"): props.field must name a field of resource "invoices" (did you mean "amount"? ${FIELDS}), got "amout"`,
    );

    writeForms({ invoices: [{ component: 'InvoiceField', props: { field: 'amount' } }] });
    const { app } = await start();
    writeForms({ invoices: [{ component: 'InvoiceField', props: { field: 'amout' } }] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
  });

  it('is listed by the inspector with the problem, after a start that only logs it', async () => {
    const { app } = await startLoggingProblems(Slot.untyped('InvoiceField', { field: 'titel' }));
    const agent = await signedInStaff(app);
    const inspection = await agent.get('/api/slots/inspect').expect(200);
    expect(inspection.body.forms.invoices).toEqual([
      expect.objectContaining({
        component: 'InvoiceField',
        position: 1,
        problems: [
          `props.field must name a field of resource "invoices" (did you mean "title"? ${FIELDS}), got "titel"`,
        ],
      }),
    ]);
  });

  it('is left out of its form when REMOTES_CONFIG places one and the start only logs it', async () => {
    writeForms({
      invoices: [
        { component: 'InvoiceField', props: { field: 'amout' } },
        { component: 'InvoiceField', props: { field: 'amount' } },
      ],
    });
    const { app } = await startLoggingProblems();
    const agent = await signedInStaff(app);
    const form = (await agent.get('/api/resources/invoices').expect(200)).body.resource.fields as FormItem[];
    expect(form.flatMap((item) => (item.type === 'slot' ? [item.props] : []))).toEqual([{ field: 'amount' }]);
  });

  it('is a blocking problem of a placements draft placing one, said at its form slot', async () => {
    const { app } = await start();
    const operator = await signedInOperator(app, 'ops', 'correct horse battery');
    const document = {
      remotes: [
        { name: 'team_billing', forms: { invoices: [{ component: 'InvoiceField', props: { field: 'titel' } }] } },
      ],
    };
    const saved = (await operator.put('/api/placements/draft').send({ document }).expect(200))
      .body as PlacementsDraftPayload;
    expect(saved.problems).toEqual([
      expect.objectContaining({
        remote: 'team_billing',
        location: 'resource form "invoices"',
        index: 0,
        component: 'InvoiceField',
        path: 'props.field',
        message: `must name a field of resource "invoices" (did you mean "title"? ${FIELDS}), got "titel"`,
        blocking: true,
      }),
    ]);
    await operator.post('/api/placements/publish').send({}).expect(400);
  });
});

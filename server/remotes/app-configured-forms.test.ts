import fs from 'node:fs';
import path from 'node:path';
import { Slot, type FormItem } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { addUser, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { Field } from '../resources/field';
import { Resource } from '../resources/resource';

/**
 * REMOTES_CONFIG's "forms" through the whole app: form slots placed in a resource's form by configuration, checked
 * at start and on reload as code's form slots are, and sent with the resource's definition.
 */

const FIELD_NAME = { type: 'string', minLength: 1 };
const RECORDS = {
  name: 'team_records',
  components: ['SlugPreview', 'CopyLinkAction'],
  formComponents: ['SlugPreview'],
  props: {
    SlugPreview: {
      type: 'object',
      properties: { source: FIELD_NAME, target: FIELD_NAME },
      required: ['source', 'target'],
      additionalProperties: false,
    },
    CopyLinkAction: { type: 'object', properties: {}, additionalProperties: false },
  },
};

/** Two fields, a code form slot, a third field: 4 items. */
class NotesResource extends Resource {
  readonly name = 'notes';
  readonly label = 'Notes';

  fields() {
    return [
      Field.text('title', { required: true }),
      Slot.make('SlugPreview', { source: 'title', target: 'label' }),
      Field.text('label', { required: true }),
      Field.text('slug'),
    ];
  }
}

const SLUG = { source: 'title', target: 'slug' };

let dist: FixtureDist;
let configFile: string;
let testApp: TestApp | null = null;

beforeEach(() => {
  dist = createFixtureDist();
  dist.addRemote(RECORDS);
  configFile = path.join(dist.dir, 'remotes.json');
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dist.remove();
});

function writeForms(forms: Record<string, unknown>): void {
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_records', forms }] }));
}

async function start(): Promise<TestApp> {
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: configFile },
    distDir: dist.dir,
    configure: (app) => app.registerResource(new NotesResource()),
  });
  return testApp;
}

async function formOf(app: TestApp['app']): Promise<FormItem[]> {
  await addUser(app, 'ada', 'correct horse battery', ['acme']);
  const agent = await signedInAgent(app, 'ada', 'correct horse battery');
  const answer = await agent.get('/api/resources/notes').expect(200);
  return answer.body.resource.fields as FormItem[];
}

const itemsOf = (fields: readonly FormItem[]) =>
  fields.map((item) => (item.type === 'field' ? item.name : `${item.component}(${JSON.stringify(item.props)})`));

describe('form slots placed by REMOTES_CONFIG', () => {
  it("are sent among the resource's fields, each at its position, several at one place in file order", async () => {
    writeForms({
      notes: [
        { component: 'SlugPreview', props: SLUG, position: { after: 'label' } },
        { component: 'SlugPreview', props: { source: 'label', target: 'slug' }, position: 0 },
        { component: 'SlugPreview', props: { source: 'slug', target: 'title' } },
        { component: 'SlugPreview', props: { source: 'title', target: 'title' }, position: { before: 'slug' } },
      ],
    });
    const { app } = await start();
    expect(itemsOf(await formOf(app))).toEqual([
      'SlugPreview({"source":"label","target":"slug"})',
      'title',
      'SlugPreview({"source":"title","target":"label"})',
      'label',
      'SlugPreview({"source":"title","target":"slug"})',
      'SlugPreview({"source":"title","target":"title"})',
      'slug',
      'SlugPreview({"source":"slug","target":"title"})',
    ]);
  });

  it.each([
    [
      'a resource nobody registered',
      { invoices: [{ component: 'SlugPreview', props: SLUG }] },
      'SlugPreview at resource form "invoices"[end] (configuration, remote "team_records"): no resource "invoices" is registered (resources: notes)',
    ],
    [
      'a field the form lacks',
      { notes: [{ component: 'SlugPreview', props: SLUG, position: { after: 'body' } }] },
      'SlugPreview at resource form "notes"[after "body"] (configuration, remote "team_records"): resource "notes" has no field "body" (its fields: title, label, slug)',
    ],
    [
      'an index past the end of the form',
      { notes: [{ component: 'SlugPreview', props: SLUG, position: 5 }] },
      'SlugPreview at resource form "notes"[5] (configuration, remote "team_records"): position 5 is past the end of the form of "notes" (4 items: give 0 to 4)',
    ],
    [
      'a component that is not a form component',
      { notes: [{ component: 'CopyLinkAction', position: 0 }] },
      'CopyLinkAction at resource form "notes"[0] (configuration, remote "team_records"): remote "team_records" does not list "CopyLinkAction" among its formComponents, so a form cannot render it',
    ],
    [
      'a component its remote does not provide',
      { notes: [{ component: 'InvoiceField' }] },
      'InvoiceField at resource form "notes"[end] (configuration, remote "team_records"): remote "team_records" provides no component "InvoiceField" (it provides SlugPreview, CopyLinkAction)',
    ],
    [
      'props its schema refuses',
      { notes: [{ component: 'SlugPreview', props: { source: 'title' } }] },
      'SlugPreview at resource form "notes"[end] (configuration, remote "team_records"): props.target is required (string)',
    ],
  ])('refuse the start for %s, naming the remote, the resource and the problem', async (_case, forms, line) => {
    writeForms(forms);
    await expect(start()).rejects.toThrow(line);
  });

  it('follow a reload; a reload with a refused form slot keeps the forms in use', async () => {
    writeForms({ notes: [{ component: 'SlugPreview', props: SLUG, position: 0 }] });
    const { app } = await start();
    const before = await formOf(app);
    expect(itemsOf(before)[0]).toBe('SlugPreview({"source":"title","target":"slug"})');

    writeForms({ notes: [{ component: 'SlugPreview', props: SLUG, position: { after: 'nope' } }] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    expect((await agent.get('/api/resources/notes').expect(200)).body.resource.fields).toEqual(before);

    writeForms({ notes: [{ component: 'SlugPreview', props: SLUG }] });
    await expect(app.reloadRemotesConfig()).resolves.toBe(true);
    const after = (await agent.get('/api/resources/notes').expect(200)).body.resource.fields as FormItem[];
    expect(itemsOf(after)).toEqual([
      'title',
      'SlugPreview({"source":"title","target":"label"})',
      'label',
      'slug',
      'SlugPreview({"source":"title","target":"slug"})',
    ]);

    fs.writeFileSync(configFile, JSON.stringify({ remotes: [] }));
    await expect(app.reloadRemotesConfig()).resolves.toBe(true);
    expect(itemsOf((await agent.get('/api/resources/notes').expect(200)).body.resource.fields)).toEqual([
      'title',
      'SlugPreview({"source":"title","target":"label"})',
      'label',
      'slug',
    ]);
  });

  it('are listed by the inspector with their source and position', async () => {
    writeForms({ notes: [{ component: 'SlugPreview', props: SLUG, position: { after: 'label' } }] });
    const { app } = await start();
    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const inspection = await agent.get('/api/slots/inspect').expect(200);
    expect(inspection.body.forms.notes).toEqual([
      expect.objectContaining({ component: 'SlugPreview', source: 'code', position: 1, problems: [] }),
      {
        component: 'SlugPreview',
        props: SLUG,
        remote: 'team_records',
        source: 'configuration',
        visibility: 'protected',
        problems: [],
        position: 3,
      },
    ]);
  });
});

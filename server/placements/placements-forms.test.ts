/**
 * Form slots in the placements document (`"forms"`, as in a REMOTES_CONFIG entry): checked at save as the file's
 * are, shown in the diff, placed in the resource's form when published, and taken out again by a rollback.
 */
import {
  Slot,
  type FormItem,
  type PlacementsDiffPayload,
  type PlacementsDraftPayload,
  type SlotInspectionPayload,
} from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createTestApp, signedInAgent, signedInOperator, type TestApp } from '../../testing/server/test-app';
import { Field } from '../resources/field';
import { Resource } from '../resources/resource';

const PASSWORD = 'correct horse battery';
const FIELD_NAME = { type: 'string', minLength: 1 };

class NotesResource extends Resource {
  readonly name = 'notes';
  readonly label = 'Notes';

  fields() {
    return [Field.text('title', { required: true }), Field.text('label', { required: true }), Field.text('slug')];
  }
}

/** A form whose code places SlugPreview after the title already. */
class PagesResource extends Resource {
  readonly name = 'pages';
  readonly label = 'Pages';

  fields() {
    return [
      Field.text('title'),
      Slot.make('SlugPreview', { source: 'title', target: 'slug' }),
      Field.text('slug'),
      Field.text('label'),
    ];
  }
}

let dist: FixtureDist;
let testApp: TestApp;
let operator: Awaited<ReturnType<typeof signedInAgent>>;

beforeEach(async () => {
  dist = createFixtureDist();
  dist.addRemote({
    name: 'team_records',
    components: ['SlugPreview'],
    formComponents: ['SlugPreview'],
    props: {
      SlugPreview: {
        type: 'object',
        properties: { source: FIELD_NAME, target: FIELD_NAME },
        required: ['source', 'target'],
        additionalProperties: false,
      },
    },
  });
  testApp = await createTestApp({
    distDir: dist.dir,
    configure: (app) => app.registerResource(new NotesResource()).registerResource(new PagesResource()),
  });
  operator = await signedInOperator(testApp.app, 'ops', PASSWORD);
});
afterEach(async () => {
  await testApp.close();
  dist.remove();
});

const formPlacing = (position: unknown, props: unknown = { source: 'title', target: 'slug' }) => ({
  remotes: [{ name: 'team_records', forms: { notes: [{ component: 'SlugPreview', props, position }] } }],
});

async function saveDraft(document: unknown): Promise<PlacementsDraftPayload> {
  return (await operator.put('/api/placements/draft').send({ document }).expect(200)).body as PlacementsDraftPayload;
}

async function notesForm(): Promise<string[]> {
  const answer = await operator.get('/api/resources/notes').expect(200);
  return (answer.body.resource.fields as FormItem[]).map((item) =>
    item.type === 'field' ? item.name : item.component,
  );
}

describe('form slots in the placements document', () => {
  it('are placed in the form when published, shown in the diff, and taken out by a rollback', async () => {
    expect(await notesForm()).toEqual(['title', 'label', 'slug']);
    expect((await saveDraft(formPlacing({ after: 'title' }))).problems).toEqual([]);
    const diff = (await operator.get('/api/placements/diff').expect(200)).body as PlacementsDiffPayload;
    expect(diff.changes).toEqual([
      {
        change: 'forms',
        location: 'resource form "notes"',
        remote: 'team_records',
        id: null,
        before: null,
        after: [{ component: 'SlugPreview', props: { source: 'title', target: 'slug' }, position: { after: 'title' } }],
      },
    ]);
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await notesForm()).toEqual(['title', 'SlugPreview', 'label', 'slug']);

    await saveDraft({ remotes: [] });
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await notesForm()).toEqual(['title', 'label', 'slug']);
    await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(201);
    expect(await notesForm()).toEqual(['title', 'SlugPreview', 'label', 'slug']);
  });

  it('are shown by the slot inspector as the placements’ own', async () => {
    const inspectedForm = async () => {
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body as SlotInspectionPayload;
      return inspected.forms.notes?.map(({ component, source, position }) => [component, source, position]);
    };
    await saveDraft(formPlacing({ after: 'title' }));
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await inspectedForm()).toEqual([['SlugPreview', 'placements', 1]]);
    expect(await testApp.app.reloadRemotesConfig()).toBe(true);
    expect(await inspectedForm()).toEqual([['SlugPreview', 'placements', 1]]);
  });

  it('are checked as the file is: a field the form lacks, or props against the schema, block the publish', async () => {
    for (const document of [formPlacing({ after: 'body' }), formPlacing({ after: 'title' }, { source: 'title' })]) {
      const saved = await saveDraft(document);
      expect(saved.problems.filter((problem) => problem.blocking)).not.toEqual([]);
      await operator.post('/api/placements/publish').send({}).expect(400);
      expect(await notesForm()).toEqual(['title', 'label', 'slug']);
    }
  });

  it('says when a form slot repeats one the form has already, by code or before it, without blocking the publish', async () => {
    const slug = { component: 'SlugPreview', props: { target: 'slug', source: 'title' }, position: { after: 'title' } };
    const { problems } = await saveDraft({
      remotes: [
        {
          name: 'team_records',
          forms: {
            pages: [slug],
            notes: [
              slug,
              { ...slug, position: { before: 'slug' } },
              { ...slug, props: { source: 'label', target: 'slug' } },
            ],
          },
        },
      ],
    });
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'placed-twice',
        location: 'resource form "pages"',
        index: 0,
        blocking: false,
        message:
          'the form of "pages" has SlugPreview with the same props already (placed by code): the form would show it ' +
          'twice. Remove one, or give it other props',
      }),
      expect.objectContaining({
        kind: 'placed-twice',
        location: 'resource form "notes"',
        index: 1,
        message: expect.stringContaining('(placed by remote "team_records" in the placements)'),
      }),
    ]);
    await operator.post('/api/placements/publish').send({}).expect(201);
  });

  it('names the form slot each problem is about, by its index in its remote’s list for the resource', async () => {
    const document = {
      remotes: [
        {
          name: 'team_records',
          forms: {
            notes: [
              { component: 'SlugPreview', props: { source: 'title', target: 'slug' }, position: { after: 'title' } },
              { component: 'SlugPreview', props: { source: 'title' }, position: { before: 'slug' } },
            ],
          },
        },
      ],
    };
    const { problems } = await saveDraft(document);
    expect(problems).not.toEqual([]);
    for (const problem of problems) {
      expect(problem).toMatchObject({ remote: 'team_records', location: 'resource form "notes"', index: 1 });
    }
  });

  it('lists which components of a remote a form slot may name', async () => {
    const answer = await operator.get('/api/placements/components').expect(200);
    expect(answer.body.remotes).toContainEqual({
      name: 'team_records',
      components: [{ name: 'SlugPreview', schema: expect.any(Object), form: true }],
    });
  });

  it('names a malformed "forms" value as a problem of its remote entry', async () => {
    const saved = await saveDraft({ remotes: [{ name: 'team_records', forms: { notes: 'SlugPreview' } }] });
    expect(saved.problems).toEqual([
      expect.objectContaining({ remote: 'team_records', kind: 'invalid-document', blocking: true }),
    ]);
    expect(saved.problems[0]!.message).toMatch(/"forms" of resource "notes" must be a list/);
  });
});

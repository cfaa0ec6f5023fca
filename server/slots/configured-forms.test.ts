import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { describeFormPosition, parseConfiguredForms } from './configured-forms';
import { loadRemotesConfig } from '../remotes/remotes-config';
import { RemotesConfigError } from '../config/remotes-config-error';

const WHERE = 'REMOTES_CONFIG f.json, remotes[0] ("team_billing")';

function parse(value: unknown) {
  return parseConfiguredForms(value, 'team_billing', WHERE);
}

describe('parseConfiguredForms', () => {
  it('reads form slots per resource, in order, each with its position (the end of the form when none is given)', () => {
    const forms = parse({
      articles: [
        { component: 'InvoiceField', props: { field: 'title' }, position: { after: 'title' } },
        { component: 'InvoiceField', props: { field: 'body' }, position: 0 },
        { component: 'InvoiceField' },
      ],
      authors: [{ component: 'InvoiceField', props: { field: 'email' }, position: { before: 'email' } }],
    });
    expect(
      forms.map(({ remote, resource, slot, position }) => ({ remote, resource, entry: slot.toEntry(), position })),
    ).toEqual([
      {
        remote: 'team_billing',
        resource: 'articles',
        entry: { component: 'InvoiceField', props: { field: 'title' } },
        position: { after: 'title' },
      },
      {
        remote: 'team_billing',
        resource: 'articles',
        entry: { component: 'InvoiceField', props: { field: 'body' } },
        position: { index: 0 },
      },
      {
        remote: 'team_billing',
        resource: 'articles',
        entry: { component: 'InvoiceField', props: {} },
        position: { end: true },
      },
      {
        remote: 'team_billing',
        resource: 'authors',
        entry: { component: 'InvoiceField', props: { field: 'email' } },
        position: { before: 'email' },
      },
    ]);
    expect(forms.map((form) => describeFormPosition(form.position))).toEqual([
      '[after "title"]',
      '[0]',
      '[end]',
      '[before "email"]',
    ]);
  });

  it.each([
    ['not an object', ['articles'], /"forms" must map resource names to lists/],
    ['a resource name that is not one', { 'Bad Name': [] }, /"forms" names "Bad Name", which is not a resource name/],
    [
      'a resource given one item, not a list',
      { articles: { component: 'InvoiceField' } },
      /"forms" of resource "articles" must be a list/,
    ],
    ['an item without a component', { articles: [{ props: {} }] }, /forms\["articles"\]\[0\] must be \{ "component"/],
    [
      'content (form slots take props only)',
      { articles: [{ component: 'InvoiceField', content: 'x' }] },
      /unknown key\(s\) content/,
    ],
    [
      'a placement rule of locations',
      { articles: [{ component: 'InvoiceField', priority: 1 }] },
      /unknown key\(s\) priority/,
    ],
    [
      'a component name that is not one',
      { articles: [{ component: 'invoice field' }] },
      /forms\["articles"\]\[0\]: Slot component must be/,
    ],
    [
      'props that are not an object',
      { articles: [{ component: 'InvoiceField', props: [1] }] },
      /props must be a plain object/,
    ],
    ['a reserved prop', { articles: [{ component: 'InvoiceField', props: { key: 'a' } }] }, /"key"/],
    [
      'a negative index',
      { articles: [{ component: 'InvoiceField', position: -1 }] },
      /"position" must be an index among the form's items/,
    ],
    ['a fractional index', { articles: [{ component: 'InvoiceField', position: 1.5 }] }, /"position" must be/],
    [
      'a position of another shape',
      { articles: [{ component: 'InvoiceField', position: { near: 'title' } }] },
      /"position" must be/,
    ],
    [
      'before and after at once',
      { articles: [{ component: 'InvoiceField', position: { before: 'a', after: 'b' } }] },
      /"position" must be/,
    ],
    [
      'an empty field name',
      { articles: [{ component: 'InvoiceField', position: { after: '' } }] },
      /"position" must be/,
    ],
  ])('refuses %s, naming the remote entry of the file', (_case, value, message) => {
    let thrown: unknown;
    try {
      parse(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RemotesConfigError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toContain(WHERE);
  });

  it('throws the error its caller makes, for placements kept elsewhere in the same JSON', () => {
    class PlacementError extends Error {}
    expect(() => parseConfiguredForms({ articles: 1 }, 'team_billing', 'draft', (m) => new PlacementError(m))).toThrow(
      PlacementError,
    );
  });
});

describe('loadRemotesConfig: "forms"', () => {
  let dist: FixtureDist;
  beforeEach(() => {
    dist = createFixtureDist();
  });
  afterEach(() => dist.remove());

  const load = (config: unknown) =>
    loadRemotesConfig({
      env: { REMOTES_CONFIG: dist.write('remotes.json', JSON.stringify(config)) },
      distDir: dist.dir,
    });

  it('takes the form slots of listed, built and entry-only remotes, in file order', () => {
    dist.addRemote({ name: 'team_records', components: ['SlugPreview'], formComponents: ['SlugPreview'] });
    const config = load({
      remotes: [
        { name: 'team_records', forms: { authors: [{ component: 'SlugPreview', props: { source: 'title' } }] } },
        {
          name: 'team_billing',
          entry: 'https://billing.example.com/mf-manifest.json',
          forms: { articles: [{ component: 'InvoiceField', position: 2 }] },
        },
      ],
    });
    expect(config.forms.map((form) => [form.remote, form.resource, form.slot.component])).toEqual([
      ['team_records', 'authors', 'SlugPreview'],
      ['team_billing', 'articles', 'InvoiceField'],
    ]);
  });

  it('refuses a bad "forms" with the file, the remote and the item in the message', () => {
    expect(() =>
      load({
        remotes: [{ name: 'team_billing', entry: 'https://b.example.com/mf-manifest.json', forms: { articles: [{}] } }],
      }),
    ).toThrow(/REMOTES_CONFIG .*remotes\.json, remotes\[0\] \("team_billing"\), forms\["articles"\]\[0\] must be/);
  });

  it('has none without the key', () => {
    expect(load({ remotes: [] }).forms).toEqual([]);
  });
});

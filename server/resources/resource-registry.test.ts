import { Slot } from '../../shared';
import { Field, MAX_FIELD_LENGTH, type SelectFieldOptions } from './field';
import { RecordFilter } from './record-filter';
import { Relation } from './relation';
import { Resource } from './resource';
import { ResourceDefinitionError } from './resource-definition-error';
import { ResourceRegistry } from './resource-registry';

class TestResource extends Resource {
  constructor(
    readonly name: string,
    private readonly items: ReadonlyArray<Field | Slot>,
    private readonly links: readonly Relation[] = [],
    readonly label = 'Things',
  ) {
    super();
  }

  fields() {
    return this.items;
  }

  override relations() {
    return this.links;
  }
}

const base = [Field.text('title', { required: true }), Field.text('label', { required: true })];

describe('ResourceRegistry', () => {
  it('keeps a slot at its position among the fields', () => {
    const registry = new ResourceRegistry();
    const registered = registry.register(
      new TestResource('things', [
        Slot.make('Before'),
        Field.text('title', { label: 'Title', required: true, maxLength: 5 }),
        Slot.make('Between', { source: 'title' }),
        Field.text('label'),
        Field.select('group', { options: ['a', 'b'] }),
        Slot.make('After'),
      ]),
    );
    expect(registered.definition.fields).toEqual([
      { type: 'slot', component: 'Before', props: {} },
      { type: 'field', name: 'title', label: 'Title', input: 'text', required: true, maxLength: 5 },
      { type: 'slot', component: 'Between', props: { source: 'title' } },
      { type: 'field', name: 'label', label: 'Label', input: 'text' },
      { type: 'field', name: 'group', label: 'Group', input: 'select', options: ['a', 'b'] },
      { type: 'slot', component: 'After', props: {} },
    ]);
    expect([...registered.fields.keys()]).toEqual(['title', 'label', 'group']);
    expect(Object.isFrozen(registered.definition.fields)).toBe(true);
  });

  it.each<[string, () => Resource, RegExp]>([
    ['a bad name', () => new TestResource('Bad Name', base), /Resource name "Bad Name" is not valid/],
    [
      'no title field',
      () => new TestResource('things', [Field.text('label')]),
      /Resource "things" has no "title" field/,
    ],
    [
      'no label field',
      () => new TestResource('things', [Field.text('title')]),
      /Resource "things" has no "label" field/,
    ],
    [
      'a title that is a relation field',
      () => new TestResource('things', [Field.relation('title'), Field.text('label')]),
      /^Resource "things": its "title" field is a relation field \(Field\.relation\); every record carries a "title" of its own: make it an ordinary field/,
    ],
    [
      'a field listed twice',
      () => new TestResource('things', [...base, Field.text('title')]),
      /field "title" is listed twice/,
    ],
    [
      'an item that is neither Field nor Slot',
      () => new TestResource('things', [...base, { name: 'x' } as unknown as Field]),
      /item 2 of fields\(\) is neither a Field nor a Slot/,
    ],
    [
      'a form slot with content',
      () => new TestResource('things', [...base, Slot.make('Callout', {}, 'text')]),
      /the slot "Callout" at position 2 has content/,
    ],
    [
      'a form slot with a visibility rule or an order',
      () =>
        new TestResource('things', [
          ...base,
          Slot.untyped('Callout').placed({ priority: 1, visibleWhen: { roles: ['operator'] } }),
        ]),
      /the slot "Callout" at position 2 has a placement \(priority, visibleWhen\); form slots take props only/,
    ],
    ['no label', () => new TestResource('things', base, [], ' '), /Resource "things" needs a label/],
  ])('refuses %s', (_what, make, message) => {
    expect(() => new ResourceRegistry().register(make())).toThrow(ResourceDefinitionError);
    expect(() => new ResourceRegistry().register(make())).toThrow(message);
  });

  it('lists the title and the label by default, and the columns a resource chooses', () => {
    const registry = new ResourceRegistry();
    expect(registry.register(new TestResource('things', base)).definition.listColumns).toEqual(['title', 'label']);
    class People extends TestResource {
      override listColumns() {
        return ['title', 'email'];
      }
    }
    const people = registry.register(new People('people', [...base, Field.email('email')]));
    expect(people.definition.listColumns).toEqual(['title', 'email']);
  });

  it.each<[string, readonly string[], RegExp]>([
    ['no column', [], /listColumns\(\) must return at least one field name/],
    ['an unknown field', ['title', 'email'], /list column "email" is not one of its fields \(title, label\)/],
    ['a column twice', ['title', 'title'], /list column "title" is listed twice/],
  ])('refuses list columns with %s', (_what, columns, message) => {
    class Listed extends TestResource {
      override listColumns() {
        return columns;
      }
    }
    expect(() => new ResourceRegistry().register(new Listed('things', base))).toThrow(message);
  });

  it('refuses a sortable list column named "relevance", which sort=relevance (a word search\'s order) hides', () => {
    class Scored extends TestResource {
      override listColumns() {
        return ['title', 'relevance'];
      }
    }
    const registry = new ResourceRegistry();
    expect(() => registry.register(new Scored('scores', [...base, Field.number('relevance')]))).toThrow(
      'Resource "scores": the list column "relevance" cannot be sorted by, since sort=relevance orders a word search ' +
        'by how well records match: name the field otherwise (such as "score"), or leave it out of listColumns().',
    );
    // As a field of the form only, it is no column to sort by.
    expect(registry.register(new TestResource('scores', [...base, Field.number('relevance')])).name).toBe('scores');
  });

  it("names one record by the resource's recordLabel, `record` when it gives none, and refuses an empty one", () => {
    const registry = new ResourceRegistry();
    expect(registry.register(new TestResource('things', base)).definition.recordLabel).toBe('record');
    class People extends TestResource {
      override readonly recordLabel = 'person';
    }
    expect(registry.register(new People('people', base)).definition.recordLabel).toBe('person');
    class Blank extends TestResource {
      override readonly recordLabel = ' ';
    }
    expect(() => registry.register(new Blank('blanks', base))).toThrow(
      'Resource "blanks": recordLabel must be a word such as "article".',
    );
  });

  it('accepts a field and a relation key named "tenant": records keep their tenant in a column of their own', () => {
    const registry = new ResourceRegistry();
    registry.register(new TestResource('leases', [...base, Field.text('tenant')]));
    registry.register(
      new TestResource(
        'invoices',
        [...base, Field.relation('payer')],
        [Relation.belongsTo('payer', { label: 'Payer', resource: 'leases', foreignKey: 'tenantId' })],
      ),
    );
    expect(registry.list().map((resource) => resource.name)).toEqual(['leases', 'invoices']);
  });

  it('refuses "id" as the key of a belongsTo relation: the record\'s own id, which the API puts there', () => {
    const registry = new ResourceRegistry();
    const resource = new TestResource('articles', base, [
      Relation.belongsTo('author', { label: 'Author', resource: 'authors', foreignKey: 'id' }),
    ]);
    expect(() => registry.register(resource)).toThrow(
      'Resource "articles": the key "id" of relation "author" cannot be used: every record carries its own id ' +
        'there, put by the API: the key would read as the record itself. Give it another name, such as "authorId".',
    );
  });

  it('refuses a relation key every JavaScript object has, as it refuses such a field name', () => {
    const registry = new ResourceRegistry();
    const resource = new TestResource(
      'articles',
      [...base, Field.relation('author', { required: true })],
      [Relation.belongsTo('author', { label: 'Author', resource: 'authors', foreignKey: 'constructor' })],
    );
    expect(() => registry.register(resource)).toThrow(
      'Resource "articles": the key "constructor" of relation "author" cannot be used: every JavaScript object ' +
        'has a "constructor", so a record without it would seem to hold one. Choose another name.',
    );
  });

  it('refuses the same name twice', () => {
    const registry = new ResourceRegistry();
    registry.register(new TestResource('things', base));
    expect(() => registry.register(new TestResource('things', base))).toThrow(/already registered/);
  });

  it('checks that relations point at registered resources once everything is registered', () => {
    const registry = new ResourceRegistry();
    registry.register(
      new TestResource('things', base, [
        Relation.belongsTo('owner', { label: 'Owner', resource: 'owners', foreignKey: 'ownerId' }),
      ]),
    );
    expect(() => registry.assertRelationsResolve()).toThrow(/points at resource "owners", which is not registered/);
    registry.register(new TestResource('owners', base));
    expect(() => registry.assertRelationsResolve()).not.toThrow();
  });

  it('refuses at ready a hasMany whose key is no belongsTo key of its resource back to it, naming the keys it has', () => {
    const teamOf = Relation.belongsTo('team', { label: 'Team', resource: 'teams', foreignKey: 'teamId' });
    const managerOf = Relation.belongsTo('manager', { label: 'Manager', resource: 'people', foreignKey: 'managerId' });
    const people = new TestResource('people', [...base, Field.relation('team')], [teamOf, managerOf]);
    const teamsListing = (foreignKey: string) =>
      new TestResource('teams', base, [
        Relation.hasMany('people', { label: 'People', resource: 'people', foreignKey }),
      ]);
    const readied =
      (...resources: Resource[]) =>
      () => {
        const registry = new ResourceRegistry();
        for (const resource of resources) registry.register(resource);
        registry.assertRelationsResolve();
      };

    expect(readied(teamsListing('teamID'), people)).toThrow(
      new ResourceDefinitionError(
        'Relation "people" of resource "teams" (hasMany) lists the records of "people" whose "teamID" holds the id ' +
          'of a "teams" record, but no belongsTo relation of "people" keeps a key "teamID", so the list would ' +
          'always be empty. Did you mean "teamId" (keys are case-sensitive)? The keys of its belongsTo relations: ' +
          '"teamId" (relation "team" to "teams", set by Field.relation("team")), "managerId" (relation "manager" to ' +
          '"people").',
      ),
    );
    expect(readied(teamsListing('leadId'), people)).toThrow(
      /keeps a key "leadId", so the list would always be empty\. The keys/,
    );
    // A key of the resource that holds another resource's ids would list the wrong records.
    expect(readied(teamsListing('managerId'), people)).toThrow(
      'but "people" keeps in "managerId" the id of a "people" record (its relation "manager"): give the key of a ' +
        'belongsTo relation of "people" to "teams".',
    );
    expect(readied(teamsListing('teamId'), new TestResource('people', base))).toThrow(
      /It has no belongsTo relation: give it Relation\.belongsTo\(…, \{ resource: 'teams', foreignKey: 'teamId' \}\)/,
    );
    expect(readied(teamsListing('teamId'), people)).not.toThrow();
  });

  it('offers a range of days on a date field only, the field sortable by day', () => {
    class Dated extends TestResource {
      constructor(private readonly offered: RecordFilter) {
        super('dated', [...base, Field.date('published'), Field.text('note')]);
      }
      override listColumns() {
        return ['title', 'published'];
      }
      override filters() {
        return [this.offered];
      }
    }
    const registered = new ResourceRegistry().register(new Dated(RecordFilter.dateRange('published')));
    expect(registered.definition.filters).toEqual([{ name: 'published', label: 'Published', kind: 'dateRange' }]);
    expect(registered.definition.fields).toContainEqual({
      type: 'field',
      name: 'published',
      label: 'Published',
      input: 'date',
    });
    expect(registered.sortKeys.get('published')).toBe('text');
    expect(() => new ResourceRegistry().register(new Dated(RecordFilter.dateRange('note')))).toThrow(
      'Resource "dated": filter "note" needs a date field of that name.',
    );
    expect(() => new ResourceRegistry().register(new Dated(RecordFilter.select('published')))).toThrow(
      'Resource "dated": filter "published" needs a select field of that name.',
    );
  });
});

describe('Field', () => {
  it.each([['id'], ['1st'], ['with space'], ['']])('refuses the name %j', (name) => {
    expect(() => Field.text(name)).toThrow(ResourceDefinitionError);
  });

  it.each([['constructor'], ['toString'], ['valueOf'], ['hasOwnProperty']])(
    'refuses %j, a name every object has (a record without it would seem to hold a function)',
    (name) => {
      expect(() => Field.text(name, { required: true })).toThrow(/every JavaScript object has a/);
      expect(() => Field.number(name)).toThrow(ResourceDefinitionError);
    },
  );

  it('refuses a select without options and a bad maxLength', () => {
    expect(() => Field.select('group', { options: [] })).toThrow(/non-empty list/);
    expect(() => Field.text('title', { maxLength: 0 })).toThrow(/maxLength/);
  });

  it('takes a maxLength up to MAX_FIELD_LENGTH only: its resource saves take a body of room for it', () => {
    expect(Field.textarea('body', { maxLength: MAX_FIELD_LENGTH }).maxLength).toBe(1_000_000);
    expect(() => Field.text('t', { maxLength: 1e9 })).toThrow(
      new ResourceDefinitionError(
        'Field "t": maxLength must be a whole number from 1 to 1,000,000 (MAX_FIELD_LENGTH), got 1000000000: each ' +
          "save of the resource's records may send that many characters per field.",
      ),
    );
    expect(() => Field.text('t', { maxLength: MAX_FIELD_LENGTH + 1 })).toThrow(/got 1000001:/);
    expect(() => Field.text('t', { maxLength: 2.5 })).toThrow(/whole number from 1 to 1,000,000/);
    expect(() => Field.email('t', { maxLength: '200' as unknown as number })).toThrow(/got the string "200":/);
  });

  it.each<[string, () => Field, string]>([
    [
      'a label that is no string',
      () => Field.text('t', { label: 42 as unknown as string }),
      '"t": label must be a non-empty string, got a number; leave it out for one made from the name.',
    ],
    [
      'a blank label',
      () => Field.relation('author', { label: ' ' }),
      '"author": label must be a non-empty string, got the string " "',
    ],
    [
      'a required that is no boolean',
      () => Field.date('d', { required: 'yes' as unknown as boolean }),
      '"d": required must be true or false, got the string "yes".',
    ],
    [
      'a help that is no string',
      () => Field.checkbox('c', { help: ['x'] as unknown as string }),
      '"c": help must be a string, got an array.',
    ],
    [
      'options that are no object',
      () => Field.number('n', null as unknown as object),
      `"n": its options must be an object such as { label: 'Title' }, got null.`,
    ],
    [
      'select options that are no object',
      () => Field.select('s', null as unknown as SelectFieldOptions),
      'Select field "s" needs a non-empty list of string options.',
    ],
  ])('refuses %s, naming the field', (_what, make, message) => {
    expect(make).toThrow(ResourceDefinitionError);
    expect(make).toThrow(message);
  });

  it('refuses an option its kind of field takes none of, also when the options come in a variable', () => {
    // A variable's excess keys pass the types: `Field.checkbox('featured', { required: true })` would not compile.
    const required: { label: string; required: boolean } = { label: 'Featured', required: true };
    expect(() => Field.checkbox('featured', required)).toThrow(
      new ResourceDefinitionError(
        'Field "featured": a checkbox field takes no "required" (unticked is a value: false); it takes "label", "help".',
      ),
    );
    const long = { maxLength: 5 } as { label?: string };
    expect(() => Field.number('views', long)).toThrow(
      'Field "views": a number field takes no "maxLength"; it takes "label", "required", "help".',
    );
    const misspelt = { requird: true } as { label?: string };
    expect(() => Field.text('summary', misspelt)).toThrow(
      /a text field takes no "requird"; it takes "label", "required"/,
    );
    // Undefined options are no option.
    expect(Field.checkbox('featured', { label: 'Featured', required: undefined } as { label: string }).label).toBe(
      'Featured',
    );
  });

  it('derives a label from the name when none is given', () => {
    expect(Field.text('firstName').label).toBe('First name');
    expect(Field.text('created_at').label).toBe('Created at');
  });
});

describe('Relation', () => {
  type Options = { label: string; resource: string; foreignKey: string };
  const author = { label: 'Author', resource: 'authors', foreignKey: 'authorId' };
  it.each<[string, () => Relation, string]>([
    [
      'a label that is no string',
      () => Relation.belongsTo('author', { ...author, label: 42 } as unknown as Options),
      'Relation "author": label must be a non-empty string, got a number.',
    ],
    [
      'options that are no object',
      () => Relation.hasMany('articles', null as unknown as Options),
      `Relation "articles": its options must be an object such as { label: 'Author', resource: 'authors', foreignKey: 'authorId' }, got null.`,
    ],
    [
      'no resource',
      () => Relation.belongsTo('author', { label: 'Author', foreignKey: 'authorId' } as Options),
      'Relation "author": resource must be the name of a registered resource, got undefined.',
    ],
    [
      // FIELD_NAME_PATTERN.test(undefined) tests "undefined", a valid name.
      'no foreign key',
      () => Relation.belongsTo('author', { label: 'Author', resource: 'authors' } as Options),
      'Relation "author": foreign key undefined is not valid',
    ],
  ])('refuses %s, naming the relation', (_what, make, message) => {
    expect(make).toThrow(ResourceDefinitionError);
    expect(make).toThrow(message);
  });
});

/**
 * Setting a record's belongsTo relation through its form field (Field.relation), the same on both engines: the
 * demo's article has an Author field holding an author's id, checked against the authors of the tenant.
 */
import {
  type BulkRecordPayload,
  type ErrorBody,
  type RecordListPayload,
  type RecordPayload,
  type ResourceRecord,
} from '../../shared';
import { Client } from 'pg';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { useSignedInDemo, type SignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp, type DemoTestApp } from '../../testing/server/test-app';
import { Field } from './field';
import { RECORD_DELETE_MESSAGES } from './record-delete-guard';
import { Relation } from './relation';
import { Resource } from './resource';
import { ResourceDefinitionError } from './resource-definition-error';
import { ResourceRegistry } from './resource-registry';
import { FIELD_MESSAGES, INVALID_RECORD_MESSAGE } from './validate-record-update';

describe('a relation field on SQLite', () => {
  relationCases(() => createDemoApp());
});

describeWithPostgres()('a relation field on PostgreSQL', () => {
  const postgres = usePostgresDatabases('relation_field', { poolSize: 4, statementTimeoutMs: 5000 });
  let databaseUrl = '';
  const demo = relationCases(async () => {
    const storage = await postgres.create();
    databaseUrl = storage.url;
    return createDemoApp({ storage });
  });

  it('refuses a save whose author another host deletes in the same moment, with the field error', async () => {
    const [ada] = await authorsNamed(demo, 'Ada Lovelace');
    const article = await articleOf(demo, ada);
    const shortStay = (
      (await demo.agent.post('/api/resources/authors/records').send({ title: 'Short stay', label: 'x' }))
        .body as RecordPayload
    ).record;
    // Another host's delete of that author has checked for articles and holds the author's row.
    const otherHost = new Client({ connectionString: databaseUrl });
    await otherHost.connect();
    try {
      await otherHost.query('BEGIN');
      await otherHost.query('SELECT id FROM records WHERE id = $1 FOR UPDATE', [shortStay.id]);
      const saving = demo.agent
        .put(`/api/resources/articles/records/${article.id}`)
        .send({ authorId: shortStay.id })
        .then((response) => response);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await otherHost.query('DELETE FROM records WHERE id = $1', [shortStay.id]);
      await otherHost.query('COMMIT');
      const answer = await saving;
      expect(answer.status).toBe(400);
      expect((answer.body as ErrorBody).error.fields).toEqual({
        authorId: FIELD_MESSAGES.noRelatedRecord('author', shortStay.id),
      });
      const kept = (await demo.agent.get(`/api/resources/articles/records/${article.id}`)).body as RecordPayload;
      expect(kept.record.authorId).toBe(ada.id);
    } finally {
      await otherHost.end();
    }
  });
});

function relationCases(open: () => Promise<DemoTestApp>): SignedInDemo {
  const demo = useSignedInDemo(open);

  it('points an article at another author, and clears it with null', async () => {
    const [ada, grace] = await authorsNamed(demo, 'Ada Lovelace', 'Grace Hopper');
    const article = await articleOf(demo, ada);
    const url = `/api/resources/articles/records/${article.id}`;

    const moved = await demo.agent.put(url).send({ authorId: grace.id });
    expect(moved.status).toBe(200);
    const payload = moved.body as RecordPayload;
    expect(payload.record.authorId).toBe(grace.id);
    expect(payload.relations.find((relation) => relation.name === 'author')?.records).toEqual([grace]);
    const ofGrace = (await demo.agent.get(`/api/resources/authors/records/${grace.id}`)).body as RecordPayload;
    expect(ofGrace.relations[0]?.records.map((each) => each.id)).toContain(article.id);
    expect((await demo.list(`filter.author=${grace.id}&limit=100`)).records.map((each) => each.id)).toContain(
      article.id,
    );

    const cleared = (await demo.agent.put(url).send({ authorId: null })).body as RecordPayload;
    expect(cleared.record).not.toHaveProperty('authorId');
    expect(cleared.relations.find((relation) => relation.name === 'author')?.records).toEqual([]);
  });

  it('refuses an id no author of the tenant has, or a value that is no id, and saves nothing', async () => {
    const [ada] = await authorsNamed(demo, 'Ada Lovelace');
    const article = await articleOf(demo, ada);
    const url = `/api/resources/articles/records/${article.id}`;
    const refused = async (authorId: unknown, message: string) => {
      const response = await demo.agent.put(url).send({ title: 'Changed', authorId });
      expect([authorId, response.status]).toEqual([authorId, 400]);
      expect((response.body as ErrorBody).error).toMatchObject({
        message: INVALID_RECORD_MESSAGE,
        fields: { authorId: message },
      });
    };
    await refused(999_999, FIELD_MESSAGES.noRelatedRecord('author', 999_999));
    for (const notAnId of ['1', 0, -3, 1.5, true, [ada.id]]) await refused(notAnId, FIELD_MESSAGES.notARecordId);

    // An author of the other tenant is no author of this one.
    const globexAuthor = (await demo.host.app.records.list('globex', 'authors'))[0];
    if (!globexAuthor) throw new Error('the demo gives globex authors');
    await refused(globexAuthor.id, FIELD_MESSAGES.noRelatedRecord('author', globexAuthor.id));

    // A deleted author (restorable, but not there) is refused too.
    const created = await demo.agent.post('/api/resources/authors/records').send({ title: 'Short stay', label: 'x' });
    const shortStay = (created.body as RecordPayload).record;
    expect((await demo.agent.delete(`/api/resources/authors/records/${shortStay.id}`)).status).toBe(200);
    await refused(shortStay.id, FIELD_MESSAGES.noRelatedRecord('author', shortStay.id));

    const unchanged = (await demo.agent.get(url)).body as RecordPayload;
    expect(unchanged.record).toEqual(article);
  });

  it('creates an article with its author, which then cannot be deleted while the article refers to it', async () => {
    const [grace] = await authorsNamed(demo, 'Grace Hopper');
    const author = (
      (await demo.agent.post('/api/resources/authors/records').send({ title: 'New voice', label: 'x' }))
        .body as RecordPayload
    ).record;
    const created = await demo.agent
      .post('/api/resources/articles/records')
      .send({ title: 'First piece', label: 'x', authorId: author.id });
    expect(created.status).toBe(201);
    const article = (created.body as RecordPayload).record;
    expect(article.authorId).toBe(author.id);

    const refused = await demo.agent.delete(`/api/resources/authors/records/${author.id}`);
    expect(refused.status).toBe(409);
    // One article, in the words of the articles' records (their recordLabel), not of their list.
    expect((refused.body as ErrorBody).error.message).toBe(
      '“New voice” cannot be deleted: 1 article (“First piece”) still refers to it. Change or delete that one first.',
    );
    // What the refusal asks for can now be done: change the article's author, then delete.
    expect(
      (await demo.agent.put(`/api/resources/articles/records/${article.id}`).send({ authorId: grace.id })).status,
    ).toBe(200);
    expect((await demo.agent.delete(`/api/resources/authors/records/${author.id}`)).status).toBe(200);
  });

  it("lists each page with the authors its articles point at, each once, for the list's Author column", async () => {
    const [ada, grace] = await authorsNamed(demo, 'Ada Lovelace', 'Grace Hopper');
    const page = await demo.list('limit=100');
    const pointedAt = new Set(page.records.map((record) => record.authorId).filter((id) => id !== undefined));
    expect(pointedAt.size).toBeGreaterThan(1);
    expect(page.related?.authorId?.map((author) => author.id).sort()).toEqual([...pointedAt].sort());
    expect(page.related?.authorId).toEqual(expect.arrayContaining([ada, grace]));
    // A page of Ada's articles names Ada alone; a page of none names none; authors have no relation column.
    expect((await demo.list(`filter.author=${ada.id}`)).related).toEqual({ authorId: [ada] });
    expect((await demo.list('search=nothingmatchesthis')).related).toEqual({ authorId: [] });
    expect((await demo.list('limit=5', 'authors')).related).toBeUndefined();
  });

  it('sets the author of many articles in one bulk request, and refuses each for a missing author', async () => {
    const [ada, grace] = await authorsNamed(demo, 'Ada Lovelace', 'Grace Hopper');
    const ids = (await demo.list(`filter.author=${ada.id}&limit=2`)).records.map((each) => each.id);
    expect(ids).toHaveLength(2);
    const bulk = async (authorId: number) =>
      (
        await demo.agent
          .post('/api/resources/articles/records/bulk')
          .send({ action: 'update', ids, values: { authorId } })
          .expect(200)
      ).body as BulkRecordPayload;

    const missing = await bulk(999_999);
    expect(missing.results.map((result) => (result.ok ? 'ok' : result.error.fields))).toEqual(
      ids.map(() => ({ authorId: FIELD_MESSAGES.noRelatedRecord('author', 999_999) })),
    );
    const moved = await bulk(grace.id);
    expect(moved.results.map((result) => result.ok && result.record.authorId)).toEqual([grace.id, grace.id]);
  });

  it('restores an article only while its author is there: the author deleted since is restored first', async () => {
    const post = async (resource: string, body: object) =>
      ((await demo.agent.post(`/api/resources/${resource}/records`).send(body).expect(201)).body as RecordPayload)
        .record;
    const author = await post('authors', { title: 'Brief author', label: 'b' });
    const article = await post('articles', { title: 'Brief article', label: 'b', authorId: author.id });
    const records = (resource: string, id: number) => `/api/resources/${resource}/records/${id}`;
    await demo.agent.delete(records('articles', article.id)).expect(200);
    await demo.agent.delete(records('authors', author.id)).expect(200);

    const refused = await demo.agent.post(`${records('articles', article.id)}/restore`);
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).error).toEqual({
      code: 'conflict',
      message: RECORD_DELETE_MESSAGES.relatedGone('Brief article', [`author #${author.id}`]),
    });
    expect((await demo.agent.get(records('articles', article.id))).status).toBe(404);

    await demo.agent.post(`${records('authors', author.id)}/restore`).expect(200);
    const restored = (await demo.agent.post(`${records('articles', article.id)}/restore`).expect(200))
      .body as RecordPayload;
    expect(restored.record.authorId).toBe(author.id);
  });
  return demo;
}

async function authorsNamed<Names extends string[]>(
  demo: SignedInDemo,
  ...names: Names
): Promise<{ [Index in keyof Names]: ResourceRecord }> {
  const authors = (await demo.list('limit=100', 'authors')).records;
  return names.map((name) => {
    const found = authors.find((author) => author.title === name);
    if (!found) throw new Error(`the demo has the author ${name}`);
    return found;
  }) as { [Index in keyof Names]: ResourceRecord };
}

async function articleOf(demo: SignedInDemo, author: ResourceRecord): Promise<ResourceRecord> {
  const found: RecordListPayload = await demo.list(`filter.author=${author.id}&limit=1`);
  const article = found.records[0];
  if (!article) throw new Error(`the demo gives ${author.title} an article`);
  return article;
}

describe('registering a relation field', () => {
  const articles = (fields: () => Array<Field>, relations = () => [belongsToAuthor], columns = ['title']) =>
    new (class extends Resource {
      readonly name = 'articles';
      readonly label = 'Articles';
      fields = fields;
      override relations = relations;
      override listColumns = () => columns;
    })();
  const belongsToAuthor = Relation.belongsTo('author', {
    label: 'Writer',
    resource: 'authors',
    foreignKey: 'authorId',
  });
  const base = () => [Field.text('title'), Field.text('label')];

  it('lists a relation field as a column that cannot be sorted by', () => {
    const registered = new ResourceRegistry().register(
      articles(() => [...base(), Field.relation('author')], undefined, ['title', 'authorId']),
    );
    expect(registered.definition.listColumns).toEqual(['title', 'authorId']);
    expect(registered.definition.sortableColumns).toEqual(['title']);
  });

  it('names the field by the relation key and labels it by the relation unless given a label', () => {
    const registry = new ResourceRegistry();
    const registered = registry.register(articles(() => [...base(), Field.relation('author', { required: true })]));
    expect(registered.definition.fields[2]).toEqual({
      type: 'field',
      name: 'authorId',
      label: 'Writer',
      input: 'relation',
      required: true,
      resource: 'authors',
      relation: 'author',
    });
    expect(registered.fields.get('authorId')?.input).toBe('relation');
    const labelled = new ResourceRegistry().register(
      articles(() => [...base(), Field.relation('author', { label: 'Written by' })]),
    );
    expect(labelled.definition.fields[2]).toMatchObject({ name: 'authorId', label: 'Written by' });
  });

  it('refuses a relation field naming no belongsTo relation, or whose key is also a plain field', () => {
    const hasMany = () => [Relation.hasMany('author', { label: 'A', resource: 'authors', foreignKey: 'articleId' })];
    expect(() => new ResourceRegistry().register(articles(() => [...base(), Field.relation('writer')]))).toThrow(
      new ResourceDefinitionError(
        'Resource "articles": the relation field "writer" names no belongsTo relation of it (its belongsTo relations: author).',
      ),
    );
    expect(() =>
      new ResourceRegistry().register(articles(() => [...base(), Field.relation('author')], hasMany)),
    ).toThrow(/names no belongsTo relation of it \(it has none\)/);
    expect(() => new ResourceRegistry().register(articles(() => [...base(), Field.number('authorId')]))).toThrow(
      /uses "authorId", which is also a field \(to edit the relation in the form, list Field.relation\("author"\)/,
    );
    // The relation field listed already: the key is taken by another field, and listing it again would not help.
    expect(() =>
      new ResourceRegistry().register(articles(() => [...base(), Field.number('authorId'), Field.relation('author')])),
    ).toThrow(
      new ResourceDefinitionError(
        'Resource "articles": relation "author" uses "authorId", which is also a field (a record keeps the ' +
          "relation's key under that name: give the relation another foreignKey, or rename the field).",
      ),
    );
  });
});

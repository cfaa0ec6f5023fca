import request from 'supertest';
import {
  PAGE_TENANT_HEADER,
  SESSION_TENANT_HEADER,
  type FormItem,
  type MetaPayload,
  type RecordListPayload,
  type RecordPayload,
  type ResourceListPayload,
  type ResourcePayload,
} from '../../shared';
import { addUser, createDemoApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { FIELD_MESSAGES } from './validate-record-update';

describe('resource API', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createDemoApp();
  });

  afterEach(async () => {
    await testApp.close();
  });

  const firstRecord = async (agent: request.Agent, resource: string) =>
    ((await agent.get(`/api/resources/${resource}/records`)).body as RecordListPayload).records[0]!;

  it('needs a session for every route', async () => {
    for (const path of [
      '/api/resources',
      '/api/resources/articles',
      '/api/resources/articles/records',
      '/api/resources/articles/records/1',
    ]) {
      const response = await request(testApp.app.handler).get(path);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthenticated');
    }
    const put = await request(testApp.app.handler).put('/api/resources/articles/records/1').send({ title: 'x' });
    expect(put.status).toBe(401);
  });

  it('lists the resources', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/api/resources');
    expect(response.status).toBe(200);
    expect(response.body as ResourceListPayload).toEqual({
      resources: [
        { name: 'articles', label: 'Articles' },
        { name: 'authors', label: 'Authors' },
      ],
    });
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('describes articles with its fields in order and the slots at their positions', async () => {
    const agent = await signedInAgent(testApp.app);
    const { resource } = (await agent.get('/api/resources/articles')).body as ResourcePayload;
    expect(resource.name).toBe('articles');
    expect(resource.label).toBe('Articles');
    const summary = resource.fields.map((item: FormItem) =>
      item.type === 'slot' ? `slot:${item.component}` : item.name,
    );
    expect(summary).toEqual([
      'title',
      'slot:SlugPreview',
      'slug',
      'label',
      'authorId',
      'group',
      'published',
      'featured',
      'body',
      'slot:SearchSnippetPreview',
    ]);
    expect(resource.fields[1]).toEqual({
      type: 'slot',
      component: 'SlugPreview',
      props: { source: 'title', target: 'slug' },
    });
    expect(resource.fields[9]).toEqual({
      type: 'slot',
      component: 'SearchSnippetPreview',
      props: { titleField: 'title', bodyField: 'body' },
    });
    expect(resource.fields[0]).toMatchObject({ type: 'field', name: 'title', input: 'text', required: true });
    expect(resource.fields[4]).toEqual({
      type: 'field',
      name: 'authorId',
      label: 'Author',
      input: 'relation',
      resource: 'authors',
      relation: 'author',
      help: "Type a word of the author's name, then choose.",
    });
    expect(resource.fields[5]).toMatchObject({
      type: 'field',
      name: 'group',
      input: 'select',
      options: ['news', 'guides', 'opinion'],
    });
    expect(resource.fields[6]).toMatchObject({ name: 'published', input: 'date' });
    expect(resource.fields[7]).toMatchObject({ name: 'featured', input: 'checkbox' });
    expect(resource.fields[8]).toMatchObject({ name: 'body', input: 'textarea' });
    expect(resource.relations).toEqual([{ name: 'author', label: 'Author', resource: 'authors' }]);
  });

  it('describes authors', async () => {
    const agent = await signedInAgent(testApp.app);
    const { resource } = (await agent.get('/api/resources/authors')).body as ResourcePayload;
    expect(resource.fields.map((item) => (item.type === 'field' ? [item.name, item.input] : item.component))).toEqual([
      ['title', 'text'],
      ['label', 'text'],
      ['group', 'select'],
      ['email', 'email'],
    ]);
    expect(resource.relations).toEqual([{ name: 'articles', label: 'Articles', resource: 'articles' }]);
  });

  it('is 404 for an unknown resource or record, with JSON', async () => {
    const agent = await signedInAgent(testApp.app);
    for (const path of [
      '/api/resources/nope',
      '/api/resources/nope/records',
      '/api/resources/articles/records/999999',
      '/api/resources/articles/records/abc',
      '/api/resources/articles/records/0',
      '/api/resources/articles/records/1e3',
    ]) {
      const response = await agent.get(path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('lists records of the current tenant with id, title, label and group when set', async () => {
    const agent = await signedInAgent(testApp.app);
    const { records } = (await agent.get('/api/resources/articles/records')).body as RecordListPayload;
    expect(records.map((record) => record.title)).toEqual([
      'Launching the spring catalogue',
      'How to write a good headline',
      'Why we moved to weekly releases',
      'Office relocation',
    ]);
    for (const record of records) {
      expect(typeof record.id).toBe('number');
      expect(typeof record.title).toBe('string');
      expect(typeof record.label).toBe('string');
    }
    expect(records[0]?.group).toBe('news');
    expect('group' in (records[3] ?? {})).toBe(false);
  });

  it('returns a record with its relations resolved in the same tenant', async () => {
    const agent = await signedInAgent(testApp.app);
    const article = await firstRecord(agent, 'articles');
    const payload = (await agent.get(`/api/resources/articles/records/${article.id}`)).body as RecordPayload;
    expect(payload.record).toMatchObject({
      id: article.id,
      title: 'Launching the spring catalogue',
      label: 'Spring launch',
    });
    expect(payload.relations).toHaveLength(1);
    expect(payload.relations[0]).toMatchObject({ name: 'author', label: 'Author', resource: 'authors' });
    expect(payload.relations[0]?.records.map((record) => record.title)).toEqual(['Ada Lovelace']);

    const ada = payload.relations[0]!.records[0]!;
    const author = (await agent.get(`/api/resources/authors/records/${ada.id}`)).body as RecordPayload;
    expect(author.relations[0]?.records.map((record) => record.title)).toEqual([
      'Launching the spring catalogue',
      'Why we moved to weekly releases',
    ]);
  });

  describe('PUT', () => {
    it('saves valid values and returns the updated record', async () => {
      const agent = await signedInAgent(testApp.app);
      const article = await firstRecord(agent, 'articles');
      const response = await agent
        .put(`/api/resources/articles/records/${article.id}`)
        .send({ title: 'Spring is here', slug: 'spring-is-here', group: 'guides', body: 'New text' });
      expect(response.status).toBe(200);
      const payload = response.body as RecordPayload;
      expect(payload.record).toMatchObject({
        id: article.id,
        title: 'Spring is here',
        slug: 'spring-is-here',
        group: 'guides',
      });
      expect(payload.relations[0]?.records[0]?.title).toBe('Ada Lovelace');
      const again = (await agent.get(`/api/resources/articles/records/${article.id}`)).body as RecordPayload;
      expect(again.record.title).toBe('Spring is here');
    });

    it('is 400 with error.fields for invalid input, and saves nothing', async () => {
      const agent = await signedInAgent(testApp.app);
      const article = await firstRecord(agent, 'articles');
      const response = await agent
        .put(`/api/resources/articles/records/${article.id}`)
        .send({ title: '', group: 'sports', label: 'x'.repeat(101), color: 'red', slots: 2, body: 5 });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.fields).toEqual({
        title: FIELD_MESSAGES.required,
        group: FIELD_MESSAGES.notAnOption,
        label: FIELD_MESSAGES.tooLong(100),
        color: FIELD_MESSAGES.unknown,
        slots: FIELD_MESSAGES.unknown,
        body: FIELD_MESSAGES.notText,
      });
      const unchanged = (await agent.get(`/api/resources/articles/records/${article.id}`)).body as RecordPayload;
      expect(unchanged.record.title).toBe(article.title);
    });

    it('refuses a body that is not an object (400), malformed JSON (400), a wrong type (415), too big (413)', async () => {
      const agent = await signedInAgent(testApp.app);
      const url = `/api/resources/articles/records/${(await firstRecord(agent, 'articles')).id}`;
      expect((await agent.put(url).send([{ title: 'x' }])).status).toBe(400);
      expect((await agent.put(url).set('Content-Type', 'application/json').send('{"title":')).status).toBe(400);
      expect((await agent.put(url).set('Content-Type', 'text/plain').send('title=x')).status).toBe(415);
      // Past the room an articles record has (its body's 20,000 characters, twice, at their longest as JSON).
      expect((await agent.put(url).send({ body: 'x'.repeat(300 * 1024) })).status).toBe(413);
    });

    it('updates the dashboard counts and titles seen through /meta', async () => {
      const agent = await signedInAgent(testApp.app);
      const before = (await agent.get('/meta')).body as MetaPayload;
      const author = await firstRecord(agent, 'authors');
      await testApp.app.records.insert('acme', 'articles', { title: 'Extra', label: 'Extra', authorId: author.id });
      const after = (await agent.get('/meta')).body as MetaPayload;
      expect(before.dashboards[0]?.cards[0]).toEqual({ title: 'Articles', value: 4 });
      expect(after.dashboards[0]?.cards[0]).toEqual({ title: 'Articles', value: 5 });
    });
  });

  describe('tenant scoping', () => {
    it('shows each tenant its own records and switching changes what is listed', async () => {
      const agent = await signedInAgent(testApp.app);
      const acme = ((await agent.get('/api/resources/authors/records')).body as RecordListPayload).records;
      expect((await agent.post('/tenant').send({ tenant: 'globex' })).status).toBe(200);
      const globex = ((await agent.get('/api/resources/authors/records')).body as RecordListPayload).records;
      expect(acme.map((record) => record.title)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
      expect(globex.map((record) => record.title)).toEqual(['Hank Scorpio', 'Frank Grimes']);
      expect(globex.some((record) => acme.some((other) => other.id === record.id))).toBe(false);
    });

    it('answers 404 for a record of another tenant, for reading and for writing', async () => {
      const agent = await signedInAgent(testApp.app);
      const acmeArticle = await firstRecord(agent, 'articles');
      await agent.post('/tenant').send({ tenant: 'globex' });
      expect((await agent.get(`/api/resources/articles/records/${acmeArticle.id}`)).status).toBe(404);
      const put = await agent.put(`/api/resources/articles/records/${acmeArticle.id}`).send({ title: 'Taken over' });
      expect(put.status).toBe(404);
      await agent.post('/tenant').send({ tenant: 'acme' });
      const intact = (await agent.get(`/api/resources/articles/records/${acmeArticle.id}`)).body as RecordPayload;
      expect(intact.record.title).toBe(acmeArticle.title);
    });

    it('refuses a change from a page that shows the tenant the session left (a switch in another tab)', async () => {
      const agent = await signedInAgent(testApp.app);
      const article = await firstRecord(agent, 'articles');
      const countIn = async (tenant: string) => (await testApp.app.records.list(tenant, 'articles')).length;
      const before = { acme: await countIn('acme'), globex: await countIn('globex') };
      // Another tab switches the session; this page still shows acme and says so with each change.
      await agent.post('/tenant').send({ tenant: 'globex' }).expect(200);
      const put = await agent
        .put(`/api/resources/articles/records/${article.id}`)
        .set(PAGE_TENANT_HEADER, 'acme')
        .send({ title: 'Edited in the acme tab' });
      const create = await agent
        .post('/api/resources/articles/records')
        .set(PAGE_TENANT_HEADER, 'acme')
        .send({ title: 'Created in the acme tab', slug: 'created-in-the-acme-tab' });
      for (const refused of [put, create]) {
        expect(refused.status).toBe(409);
        expect(refused.body.error).toEqual({
          code: 'tenant_changed',
          message:
            'Nothing was changed: this page works in Acme Corp, but your session now works in Globex ' +
            '(switched in another tab). Reload the page to work in Globex, or switch back to Acme Corp first.',
        });
      }
      expect({ acme: await countIn('acme'), globex: await countIn('globex') }).toEqual(before);
      await agent.post('/tenant').send({ tenant: 'acme' }).expect(200);
      expect(
        ((await agent.get(`/api/resources/articles/records/${article.id}`)).body as RecordPayload).record.title,
      ).toBe(article.title);
      // Reads are answered whatever the page shows, and a change from a page of the session's tenant goes through.
      await agent.get('/api/resources/articles/records').set(PAGE_TENANT_HEADER, 'globex').expect(200);
      await agent
        .put(`/api/resources/articles/records/${article.id}`)
        .set(PAGE_TENANT_HEADER, 'acme')
        .send({ title: 'Edited in the acme tab' })
        .expect(200);
    });

    it('says in which tenant each answer was made, also after the account left the one the session had', async () => {
      const agent = await signedInAgent(testApp.app);
      const article = await firstRecord(agent, 'articles');
      const list = await agent.get('/api/resources/articles/records').expect(200);
      expect(list.get(SESSION_TENANT_HEADER)).toBe('acme');

      // Removed from acme: the server falls back to globex, and says so, on a list and on acme's record alike.
      const admin = (await testApp.app.users.findByUsername('admin'))!;
      await testApp.app.tenants.setMemberships(admin.id, ['globex']);
      const fallen = await agent.get('/api/resources/articles/records').expect(200);
      expect(fallen.get(SESSION_TENANT_HEADER)).toBe('globex');
      const gone = await agent.get(`/api/resources/articles/records/${article.id}`).expect(404);
      expect(gone.get(SESSION_TENANT_HEADER)).toBe('globex');
      // A refused change says it too.
      const refused = await agent
        .put(`/api/resources/articles/records/${article.id}`)
        .set(PAGE_TENANT_HEADER, 'acme')
        .send({ title: 'Edited after leaving acme' })
        .expect(409);
      expect(refused.get(SESSION_TENANT_HEADER)).toBe('globex');
    });

    it('keeps a user of one tenant out of the other: 403 on switching, 404 on its records', async () => {
      await addUser(testApp.app, 'globex-editor', 'globex-editor-password', ['globex']);
      const admin = await signedInAgent(testApp.app);
      const acmeArticle = await firstRecord(admin, 'articles');

      const editor = await signedInAgent(testApp.app, 'globex-editor', 'globex-editor-password');
      expect((await editor.post('/tenant').send({ tenant: 'acme' })).status).toBe(403);
      expect((await editor.get(`/api/resources/articles/records/${acmeArticle.id}`)).status).toBe(404);
      const own = ((await editor.get('/api/resources/articles/records')).body as RecordListPayload).records;
      expect(own.map((record) => record.title)).toContain('Globex quarterly results');
    });
  });

  it('answers 405 for a method a route does not take', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.patch('/api/resources/articles/records/1');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, PUT, DELETE, HEAD');
    expect((await agent.post('/api/resources')).status).toBe(405);
  });
});

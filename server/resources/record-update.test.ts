/**
 * Reading and changing one record through the API, the same on both engines: SQLite (a file in a temporary folder)
 * and a real PostgreSQL (a fresh database per case). Two apps on one database stand for two hosts.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type request from 'supertest';
import {
  RECORD_RESTORE_WINDOW_MS,
  UNCHANGED_FIELDS_KEY,
  type BulkRecordPayload,
  type ErrorBody,
  type RecordListPayload,
  type RecordDeletedPayload,
  type RecordPayload,
  type ResourceRecord,
} from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import {
  addUser,
  closeTwoHosts,
  createDemoApp,
  createTwoHosts,
  signedInAgent,
  type DemoTestApp,
} from '../../testing/server/test-app';
import { RESENT_DELETE_WINDOW_MS } from './resources-router';
import { UNCHANGED_FIELDS_MESSAGES } from './unchanged-fields';
import { FIELD_MESSAGES } from './validate-record-update';

/** A server up for the whole case, on loopback. */
function listening(handler: RequestListener): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('records through the API on SQLite', () => {
  recordCases(() => createTwoHosts(createDemoApp));
});

describeWithPostgres()('records through the API on PostgreSQL', () => {
  const postgres = usePostgresDatabases('records', { poolSize: 4, statementTimeoutMs: 5000 });
  recordCases(async () => createTwoHosts(createDemoApp, { storage: await postgres.create() }));
});

/** The cases, on two demo apps on one new database (two hosts) that `twoHosts` opens. */
function recordCases(twoHosts: () => Promise<[DemoTestApp, DemoTestApp]>): void {
  let hosts: [DemoTestApp, DemoTestApp];
  let agent: request.Agent;
  let article: ResourceRecord;

  beforeEach(async () => {
    hosts = await twoHosts();
    agent = await signedInAgent(hosts[0].app);
    article = ((await agent.get('/api/resources/articles/records')).body as RecordListPayload).records[0]!;
  });

  afterEach(async () => {
    await closeTwoHosts(hosts);
  });

  const url = (id: number | string) => `/api/resources/articles/records/${id}`;

  it('takes a record as long as its fields may be, edited with the values its form loaded, and names the limit beyond', async () => {
    // The articles' body at its maxLength (20,000), each character as long in JSON as one gets (`\u0001`, 6 bytes).
    const longest = `${'\u0001'.repeat(19_999)}é`;
    const created = await agent
      .post('/api/resources/articles/records')
      .send({ title: 'Long', label: 'Long', body: longest });
    expect(created.status).toBe(201);
    const record = (created.body as RecordPayload).record;
    // Sent twice by an edit: the new value, and the loaded one to find still stored.
    const edited = '😀'.repeat(20_000);
    const saved = await agent.put(url(record.id)).send({ body: edited, [UNCHANGED_FIELDS_KEY]: { body: longest } });
    expect(saved.status).toBe(200);
    expect((saved.body as RecordPayload).record.body).toBe(edited);
    // Beyond what any articles record needs: 413, naming the limit and the size.
    const huge = await agent
      .put(url(record.id))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ title: 'x'.repeat(300 * 1024) }));
    expect(huge.status).toBe(413);
    const message = (huge.body as ErrorBody).error.message;
    expect(message).toMatch(
      /^Request body too large: this request carries at most \d+ KiB of JSON \(this one: 301 KiB\)\.$/,
    );
    expect(Number(/at most (\d+) KiB/.exec(message)?.[1])).toBeGreaterThan(240);
    // Another route keeps the API's usual limit.
    const login = await agent.post('/tenant').send({ tenant: 'x'.repeat(17 * 1024) });
    expect(login.status).toBe(413);
    expect((login.body as ErrorBody).error.message).toMatch(/at most 16 KiB of JSON/);
  });

  it('refuses U+0000 in a text field with a message on that field, and keeps the record', async () => {
    const response = await agent.put(url(article.id)).send({ title: 'Nul\u0000here', body: '\u0000' });
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).error.fields).toEqual({
      title: FIELD_MESSAGES.nulCharacter,
      body: FIELD_MESSAGES.nulCharacter,
    });
    expect(((await agent.get(url(article.id))).body as RecordPayload).record).toEqual(article);
    expect((await agent.get('/api/resources/articles/records?sort=title&q=nul')).status).toBe(200);
  });

  it('refuses a lone UTF-16 surrogate in a text field with a message on that field, and keeps the record', async () => {
    // As a client sends it: the JSON escape, which JSON.parse turns into half of a character.
    const response = await agent
      .put(url(article.id))
      .set('Content-Type', 'application/json')
      .send('{"label":"\\ud800","title":"Fine \\ud83d\\ude00"}');
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).error.fields).toEqual({ label: FIELD_MESSAGES.loneSurrogate });
    expect(((await agent.get(url(article.id))).body as RecordPayload).record).toEqual(article);
    // A whole pair is a character like any other.
    const saved = await agent
      .put(url(article.id))
      .set('Content-Type', 'application/json')
      .send('{"label":"ok \\ud83d\\ude00"}');
    expect(saved.status).toBe(200);
    expect((saved.body as RecordPayload).record.label).toBe('ok \u{1F600}');
    // Nor can a cursor carry one to the database.
    const cursor = Buffer.from('{"s":"title","q":"","k":"\\ud800","i":1}').toString('base64url');
    const listed = await agent.get(`/api/resources/articles/records?sort=title&after=${cursor}`);
    expect(listed.status).toBe(400);
    expect((listed.body as ErrorBody).error.code).toBe('invalid_request');
  });

  it('answers ids and cursors beyond a 32-bit id as missing or invalid, never as a failure', async () => {
    for (const id of ['3000000000', '2147483648', '99999999999999999999']) {
      expect((await agent.get(url(id))).status).toBe(404);
      expect((await agent.put(url(id)).send({ title: 'x' })).status).toBe(404);
    }
    const cursor = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');
    for (const after of [
      cursor({ s: 'id', q: '', i: 3_000_000_000 }),
      cursor({ s: 'title', q: '', k: 'a', i: 2 ** 31 }),
      cursor({ s: 'title', q: '', k: 'a\u0000', i: 1 }),
    ]) {
      const sort = after === cursor({ s: 'id', q: '', i: 3_000_000_000 }) ? 'id' : 'title';
      const response = await agent.get(`/api/resources/articles/records?sort=${sort}&after=${after}`);
      expect(response.status).toBe(400);
      expect((response.body as ErrorBody).error.code).toBe('invalid_request');
    }
    expect((await agent.get('/api/resources/articles/records?sort=title&q=a%00')).status).toBe(400);
    const largest = await agent.get(
      `/api/resources/articles/records?after=${cursor({ s: 'id', q: '', i: 2 ** 31 - 1 })}`,
    );
    expect(largest.status).toBe(200);
    expect((largest.body as RecordListPayload).records).toEqual([]);
  });

  it('keeps every field of concurrent partial updates, from one host and from two', async () => {
    const servers = await Promise.all(hosts.map((host) => listening(host.app.handler)));
    try {
      const agents = await Promise.all(servers.map((server) => signedInAgent(server)));
      const fields = ['title', 'slug', 'label', 'body', 'group'] as const;
      const valueOf = (field: (typeof fields)[number], round: number) =>
        field === 'group' ? ['news', 'guides', 'opinion'][round % 3]! : `${field} ${round}`;
      for (let round = 0; round < 12; round++) {
        // Rounds alternate between every update on the first host and updates spread over both.
        const responses = await Promise.all(
          fields.map((field, index) =>
            agents[round % 2 === 0 ? 0 : index % 2]!.put(url(article.id)).send({ [field]: valueOf(field, round) }),
          ),
        );
        expect(responses.map((response) => response.status)).toEqual(fields.map(() => 200));
        const { record } = (await agents[0]!.get(url(article.id))).body as RecordPayload;
        for (const field of fields) {
          expect([round, field, record[field]]).toEqual([round, field, valueOf(field, round)]);
        }
      }
    } finally {
      for (const server of servers) server.close();
    }
  });

  it('saves a field only while it holds the value loaded, when the save says so ($ifUnchanged)', async () => {
    const other = await signedInAgent(hosts[1].app);
    // Someone on the other host saves another title, and a body.
    expect((await other.put(url(article.id)).send({ title: 'Theirs', body: 'Their body' })).status).toBe(200);

    // A save of the title loaded before that is refused, with their record; nothing of it is written.
    const refused = await agent.put(url(article.id)).send({
      title: 'Mine',
      label: 'My label',
      [UNCHANGED_FIELDS_KEY]: { title: article.title, label: article.label },
    });
    expect(refused.status).toBe(409);
    const { error } = refused.body as ErrorBody;
    expect(error).toMatchObject({
      code: 'conflict',
      message: UNCHANGED_FIELDS_MESSAGES.changed(['Title']),
      fields: { title: UNCHANGED_FIELDS_MESSAGES.field },
    });
    expect(error.storedRecord).toMatchObject({ id: article.id, title: 'Theirs', body: 'Their body' });
    expect(((await agent.get(url(article.id))).body as RecordPayload).record).toMatchObject({
      title: 'Theirs',
      label: article.label,
    });

    // A save of a field they left alone lands, and keeps theirs; so does the title, expecting what is stored now.
    const label = await agent
      .put(url(article.id))
      .send({ label: 'Mine', [UNCHANGED_FIELDS_KEY]: { label: article.label } });
    expect(label.status).toBe(200);
    expect((label.body as RecordPayload).record).toMatchObject({ title: 'Theirs', body: 'Their body', label: 'Mine' });
    const title = await agent.put(url(article.id)).send({ title: 'Mine', [UNCHANGED_FIELDS_KEY]: { title: 'Theirs' } });
    expect((title.body as RecordPayload).record).toMatchObject({ title: 'Mine', body: 'Their body' });

    // A field never set holds null.
    const cleared = await agent.put(url(article.id)).send({ group: null });
    expect((cleared.body as RecordPayload).record).not.toHaveProperty('group');
    const group = await agent.put(url(article.id)).send({ group: 'news', [UNCHANGED_FIELDS_KEY]: { group: null } });
    expect((group.body as RecordPayload).record.group).toBe('news');
  });

  it('answers a save sent again after it landed (a proxy resending the PUT to the other host) as the first time', async () => {
    const save = {
      title: 'Mine',
      label: 'My label',
      [UNCHANGED_FIELDS_KEY]: { title: article.title, label: article.label },
    };
    const first = await agent.put(url(article.id)).send(save);
    expect(first.status).toBe(200);
    // The same request on the other host, as nginx sends it when the first dropped the connection after writing.
    const again = await (await signedInAgent(hosts[1].app)).put(url(article.id)).send(save);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    // Still refused when a field moved to another value than this save's: that would replace someone's.
    expect((await agent.put(url(article.id)).send({ title: 'Theirs' })).status).toBe(200);
    const refused = await agent.put(url(article.id)).send(save);
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).error.fields).toEqual({ title: UNCHANGED_FIELDS_MESSAGES.field });
    // And a field the precondition names that the save does not set is checked as before.
    const unset = await agent
      .put(url(article.id))
      .send({ label: 'My label', [UNCHANGED_FIELDS_KEY]: { title: 'Mine' } });
    expect(unset.status).toBe(409);
  });

  it('answers a save both stale and invalid with the 409 of the field someone changed, not the 400 of its values', async () => {
    expect((await (await signedInAgent(hosts[1].app)).put(url(article.id)).send({ title: 'Theirs' })).status).toBe(200);
    // The title loaded was changed meanwhile, and the label sent is one no article may have: fixing the label and
    // saving again would only meet the 409, so that comes first, with their record to compare.
    const stale = { title: 'Mine', label: 'x\ny', [UNCHANGED_FIELDS_KEY]: { title: article.title } };
    const refused = await agent.put(url(article.id)).send(stale);
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).error).toMatchObject({
      code: 'conflict',
      fields: { title: UNCHANGED_FIELDS_MESSAGES.field },
      storedRecord: { title: 'Theirs' },
    });
    // Invalid only (the precondition holds, or a field already holds the very value this save sets): the 400.
    for (const title of ['Theirs', 'Mine']) {
      if (title === 'Mine') expect((await agent.put(url(article.id)).send({ title: 'Mine' })).status).toBe(200);
      const invalid = await agent
        .put(url(article.id))
        .send({ title: 'Mine', label: 'x\ny', [UNCHANGED_FIELDS_KEY]: { title } });
      expect([invalid.status, (invalid.body as ErrorBody).error.fields]).toEqual([
        400,
        { label: FIELD_MESSAGES.lineBreak },
      ]);
    }
    expect(((await agent.get(url(article.id))).body as RecordPayload).record).toMatchObject({
      title: 'Mine',
      label: article.label,
    });
  });

  it('lets one of two saves of the same field land when both expect the value loaded, on one host and on two', async () => {
    const servers = await Promise.all(hosts.map((host) => listening(host.app.handler)));
    try {
      const agents = await Promise.all(servers.map((server) => signedInAgent(server)));
      let loaded = article.title;
      for (let round = 0; round < 8; round++) {
        const mine = [`First ${round}`, `Second ${round}`];
        const responses = await Promise.all(
          mine.map((title, index) =>
            agents[round % 2 === 0 ? 0 : index]!.put(url(article.id)).send({
              title,
              [UNCHANGED_FIELDS_KEY]: { title: loaded },
            }),
          ),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
        const landed = mine[responses.findIndex((response) => response.status === 200)]!;
        const refused = responses.find((response) => response.status === 409)!;
        expect((refused.body as ErrorBody).error.storedRecord?.title).toBe(landed);
        loaded = ((await agents[0]!.get(url(article.id))).body as RecordPayload).record.title;
        expect(loaded).toBe(landed);
      }
    } finally {
      for (const server of servers) server.close();
    }
  });

  it("refuses a precondition that is not an object of the resource's fields, saving nothing", async () => {
    for (const [unchanged, message] of [
      ['title', UNCHANGED_FIELDS_MESSAGES.notAnObject],
      [null, UNCHANGED_FIELDS_MESSAGES.notAnObject],
      [{ title: article.title, nope: 1, id: 1 }, UNCHANGED_FIELDS_MESSAGES.unknownFields(['nope', 'id'])],
    ] as const) {
      const response = await agent.put(url(article.id)).send({ title: 'Mine', [UNCHANGED_FIELDS_KEY]: unchanged });
      expect([response.status, (response.body as ErrorBody).error.message]).toEqual([400, message]);
    }
    // Not a field: a create or a bulk update naming it is told so, as for any unknown field.
    const created = await agent
      .post('/api/resources/articles/records')
      .send({ title: 'New', slug: 'new', [UNCHANGED_FIELDS_KEY]: {} });
    expect((created.body as ErrorBody).error.fields).toMatchObject({ [UNCHANGED_FIELDS_KEY]: FIELD_MESSAGES.unknown });
    expect(((await agent.get(url(article.id))).body as RecordPayload).record).toEqual(article);
  });

  /** A record of the demo tenant's articles nothing refers to, made for the case. */
  const newArticle = async (): Promise<ResourceRecord> =>
    (
      (await agent.post('/api/resources/articles/records').send({ title: 'Resent', label: 'resent' }).expect(201))
        .body as RecordPayload
    ).record;

  /** The 404 of a record deleted already: it says so, with where to restore it. */
  const expectDeletedAlready = (response: request.Response, id: number): void => {
    expect(response.status).toBe(404);
    const { error } = response.body as ErrorBody;
    expect(error.message).toContain('was deleted');
    expect(error.deletedRecord).toMatchObject({ resource: 'articles', id });
  };

  it('answers a DELETE sent again by the account that deleted the record, through any host, as the first time', async () => {
    const record = await newArticle();
    const first = await agent.delete(url(record.id));
    expect(first.status).toBe(200);
    expect((first.body as RecordDeletedPayload).deleted).toEqual(record);
    // Its answer lost, the client sends it again; a balancer takes it to the other host.
    const again = await (await signedInAgent(hosts[1].app)).delete(url(record.id));
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect((await agent.delete(url(record.id))).body).toEqual(first.body);
    // Deleted once: restored once, and then there.
    expect((await agent.post(`${url(record.id)}/restore`)).status).toBe(200);
    expect(((await agent.get(url(record.id)).expect(200)).body as RecordPayload).record).toEqual(record);
  });

  it('answers the delete of a record another account deleted with where to restore it', async () => {
    const record = await newArticle();
    await addUser(hosts[0].app, 'colleague', 'correct horse battery', ['acme']);
    const colleague = await signedInAgent(hosts[1].app, 'colleague', 'correct horse battery');
    expect((await colleague.delete(url(record.id))).status).toBe(200);
    expectDeletedAlready(await agent.delete(url(record.id)), record.id);
    // And a bulk delete, record by record, as that route would answer.
    const bulk = await agent.post('/api/resources/articles/records/bulk').send({ action: 'delete', ids: [record.id] });
    expect((bulk.body as BulkRecordPayload).results).toMatchObject([
      { id: record.id, ok: false, error: { code: 'not_found', deletedRecord: { id: record.id } } },
    ]);
  });

  it('answers the DELETE of a record deleted by no known account as deleted already, to its tenant only', async () => {
    // Deleted as a host of a release before schema step 18 deletes (no deleter noted), moments ago: whoever sent
    // that DELETE cannot be told from another account, so none is answered as its resend; each is told it was
    // deleted, with where to restore it, on either host and record by record in a bulk delete.
    const record = await newArticle();
    expect(await hosts[0].app.records.delete('acme', 'articles', record.id)).toEqual(record);
    expectDeletedAlready(await agent.delete(url(record.id)), record.id);
    expectDeletedAlready(await (await signedInAgent(hosts[1].app)).delete(url(record.id)), record.id);
    const bulk = await agent.post('/api/resources/articles/records/bulk').send({ action: 'delete', ids: [record.id] });
    expect((bulk.body as BulkRecordPayload).results).toMatchObject([
      { id: record.id, ok: false, error: { code: 'not_found', deletedRecord: { id: record.id } } },
    ]);
    // An account of another tenant learns nothing of it: the 404 of a record that never was.
    await addUser(hosts[0].app, 'outsider', 'correct horse battery', ['globex']);
    const outsider = await signedInAgent(hosts[1].app, 'outsider', 'correct horse battery');
    const theirs = await outsider.delete(url(record.id));
    expect([theirs.status, theirs.body]).toEqual([
      404,
      { error: { code: 'not_found', message: `There is no articles record ${record.id}.` } },
    ]);
    // Still restorable by its tenant, once.
    expect((await agent.post(`${url(record.id)}/restore`)).status).toBe(200);
  });

  it('answers 404 to its own DELETE of a record it deleted over a minute ago', async () => {
    const record = await newArticle();
    const admin = await hosts[0].app.users.findByUsername('admin');
    const deletedAt = Date.now() - RESENT_DELETE_WINDOW_MS - 1000;
    expect(
      await hosts[0].app.records.delete('acme', 'articles', record.id, { now: deletedAt, deletedBy: admin!.id }),
    ).toEqual(record);
    expectDeletedAlready(await agent.delete(url(record.id)), record.id);
  });

  it('answers a bulk delete sent again as the first time, every record deleted once', async () => {
    const records = [await newArticle(), await newArticle()];
    const ids = records.map((record) => record.id);
    const send = () => agent.post('/api/resources/articles/records/bulk').send({ action: 'delete', ids });
    const first = (await send().expect(200)).body as BulkRecordPayload;
    const again = (await send().expect(200)).body as BulkRecordPayload;
    expect(again.results).toEqual(first.results);
    expect(again.results.map((result) => result.ok)).toEqual([true, true]);
    expect(again.restorableUntil).toBe(first.restorableUntil);
  });

  it('answers a bulk delete sent again with the deadline of the first delete, not one counted from now', async () => {
    const records = [await newArticle(), await newArticle()];
    const ids = records.map((record) => record.id);
    const admin = await hosts[0].app.users.findByUsername('admin');
    // Its first answer lost half a minute ago (the records deleted then by this account, as the route deletes them,
    // the earlier one first): sent again now, it answers the deadline that answer gave, the earliest deletion's.
    const deletedAt = Date.now() - RESENT_DELETE_WINDOW_MS / 2;
    for (const [index, id] of ids.entries()) {
      await hosts[0].app.records.delete('acme', 'articles', id, { now: deletedAt + index, deletedBy: admin!.id });
    }
    const again = await (await signedInAgent(hosts[1].app))
      .post('/api/resources/articles/records/bulk')
      .send({ action: 'delete', ids })
      .expect(200);
    const payload = again.body as BulkRecordPayload;
    expect(payload.results).toEqual(records.map((record) => ({ id: record.id, ok: true, record })));
    expect(payload.restorableUntil).toBe(deletedAt + RECORD_RESTORE_WINDOW_MS);
    // As a DELETE of one of them says.
    const one = (await agent.delete(url(ids[0]!)).expect(200)).body as RecordDeletedPayload;
    expect(one.restorableUntil).toBe(payload.restorableUntil);
  });
}

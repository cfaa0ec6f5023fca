import {
  API_CLIENT_MESSAGES,
  ApiError,
  createApiClient,
  PAGE_TENANT_HEADER,
  SESSION_TENANT_HEADER,
  BACKGROUND_READ_HEADER,
  type RequestInitLike,
  type ResponseLike,
} from './api-client';
import { RECORD_CREATION_KEY_HEADER } from './resource-wire';

function answer(status: number, body?: unknown, headers: Record<string, string> = {}): ResponseLike {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name) => headers[name] ?? null },
    json: async () => (body === undefined ? Promise.reject(new SyntaxError('no body')) : body),
  };
}

describe('createApiClient', () => {
  it('sends JSON with the session cookie of the page, and a Content-Type only with a body', async () => {
    const calls: Array<[string, RequestInitLike]> = [];
    const client = createApiClient(async (url, init) => {
      calls.push([url, init]);
      return answer(200, { ok: true });
    });

    await expect(client.get('/me')).resolves.toEqual({ ok: true });
    await client.post('/tenant', { tenant: 'globex' });
    await client.put('/api/resources/articles/records/1', { title: 'T' });

    expect(calls[0]).toEqual([
      '/me',
      { method: 'GET', credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } },
    ]);
    expect(calls[1]).toEqual([
      '/tenant',
      {
        method: 'POST',
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: '{"tenant":"globex"}',
      },
    ]);
    expect(calls[2]?.[1]).toMatchObject({ method: 'PUT', body: '{"title":"T"}' });
  });

  it('marks each change, never a read, with the tenant the page shows, when it knows one', async () => {
    const sent: Array<[string, Record<string, string>]> = [];
    let shown: string | null = 'acme';
    const client = createApiClient(
      async (_url, init) => {
        sent.push([init.method, init.headers]);
        return answer(200, {});
      },
      { pageTenant: () => shown },
    );
    await client.get('/api/resources/articles');
    await client.post('/api/resources/articles/records', { title: 'T' });
    await client.put('/api/resources/articles/records/1', { title: 'T' });
    await client.delete('/api/resources/articles/records/1');
    shown = null;
    await client.post('/logout');
    expect(sent.map(([method, headers]) => [method, headers[PAGE_TENANT_HEADER] ?? null])).toEqual([
      ['GET', null],
      ['POST', 'acme'],
      ['PUT', 'acme'],
      ['DELETE', 'acme'],
      ['POST', null],
    ]);
  });

  it('refuses a read answered in another tenant than the page shows, and says the session moved', async () => {
    let shown: string | null = 'acme';
    let moved = 0;
    const answers: Record<string, ResponseLike> = {
      '/api/resources/articles/records': answer(
        200,
        { records: ['a globex record'] },
        { [SESSION_TENANT_HEADER]: 'globex' },
      ),
      '/api/resources/articles/records/7': answer(
        404,
        { error: { code: 'not_found', message: 'Not found.' } },
        { [SESSION_TENANT_HEADER]: 'globex' },
      ),
      '/api/resources/articles': answer(200, { resource: 'articles' }, { [SESSION_TENANT_HEADER]: 'acme' }),
      '/api/remotes': answer(200, { remotes: [] }),
    };
    const client = createApiClient(async (url) => answers[url]!, {
      pageTenant: () => shown,
      onTenantMoved: () => moved++,
    });

    // Answered in globex while the page shows acme: neither the records nor globex's "not found" reach the page.
    for (const path of ['/api/resources/articles/records', '/api/resources/articles/records/7']) {
      const refused = await client.get(path).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({
        status: 409,
        code: 'tenant_changed',
        message: API_CLIENT_MESSAGES.tenantMoved,
        request: `GET ${path}`,
      });
    }
    expect(moved).toBe(2);

    // The page's own tenant, an answer made in no tenant, and a page that shows none are handed over.
    await expect(client.get('/api/resources/articles')).resolves.toEqual({ resource: 'articles' });
    await expect(client.get('/api/remotes')).resolves.toEqual({ remotes: [] });
    shown = null;
    await expect(client.get('/api/resources/articles/records')).resolves.toEqual({ records: ['a globex record'] });
    expect(moved).toBe(2);
  });

  it('asks a read again, once, when the page following the session finds it back in the page’s tenant', async () => {
    // A switch to globex and back in another tab: the read was answered in between.
    const answeredIn = ['globex', 'acme'];
    const asked: string[] = [];
    let shown = 'acme';
    const follow = jest.fn(async () => undefined);
    const client = createApiClient(
      async (url) => {
        asked.push(url);
        return answer(
          200,
          { records: [`an ${answeredIn[0]} record`] },
          { [SESSION_TENANT_HEADER]: answeredIn.shift()! },
        );
      },
      { pageTenant: () => shown, onTenantMoved: follow },
    );
    await expect(client.get('/api/resources/articles/records')).resolves.toEqual({ records: ['an acme record'] });
    expect(asked).toHaveLength(2);
    expect(follow).toHaveBeenCalledTimes(1);

    // Answered in globex again: refused the second time, not asked for ever.
    answeredIn.push('globex', 'globex', 'globex');
    await expect(client.get('/api/resources/articles/records')).rejects.toMatchObject({ code: 'tenant_changed' });
    expect(asked).toHaveLength(4);
    // The session did move (the page follows it to globex): refused at once, the page reads again there.
    follow.mockImplementationOnce(async () => {
      shown = 'globex';
    });
    await expect(client.get('/api/resources/articles/records')).rejects.toMatchObject({ code: 'tenant_changed' });
    expect(asked).toHaveLength(5);
  });

  it('checks no change by the tenant it was answered in: the server refused those made elsewhere', async () => {
    let moved = 0;
    const client = createApiClient(async () => answer(200, { saved: true }, { [SESSION_TENANT_HEADER]: 'globex' }), {
      pageTenant: () => 'acme',
      onTenantMoved: () => moved++,
    });
    await expect(client.post('/tenant', { tenant: 'globex' })).resolves.toEqual({ saved: true });
    expect(moved).toBe(0);
  });

  it('follows the session when a change is refused for being asked in a tenant the session has left', async () => {
    let moved = 0;
    const refusal = { error: { code: 'tenant_changed', message: 'Nothing was changed: your account no longer…' } };
    const client = createApiClient(async () => answer(409, refusal, { [SESSION_TENANT_HEADER]: 'globex' }), {
      pageTenant: () => 'acme',
      onTenantMoved: () => moved++,
    });
    await expect(client.put('/api/resources/articles/records/4', { title: 'T' })).rejects.toMatchObject({
      status: 409,
      code: 'tenant_changed',
      message: 'Nothing was changed: your account no longer…',
    });
    expect(moved).toBe(1);
  });

  it('marks a read the page makes by itself, so that it keeps no session alive, and no other', async () => {
    const sent: Array<string | null> = [];
    const client = createApiClient(async (_url, init) => {
      sent.push(init.headers[BACKGROUND_READ_HEADER] ?? null);
      return answer(200, {});
    });
    await client.get('/api/slot-stats?window=1h', undefined, { background: true });
    await client.get('/api/slot-stats?window=1h');
    await client.get('/api/slot-stats?window=1h', undefined, { background: false });
    expect(sent).toEqual(['1', null, null]);
  });

  it('sends the key of a create made once with that create, and with no other request', async () => {
    const sent: Array<string | null> = [];
    const client = createApiClient(async (_url, init) => {
      sent.push(init.headers[RECORD_CREATION_KEY_HEADER] ?? null);
      return answer(201, {});
    });
    await client.post('/api/resources/articles/records', { title: 'x' }, undefined, { idempotencyKey: 'k-1' });
    await client.post('/api/resources/articles/records', { title: 'x' });
    await client.put('/api/resources/articles/records/1', { title: 'x' });
    expect(sent).toEqual(['k-1', null, null]);
  });

  it('sends a POST without a body as no body and no Content-Type, and reads a 204 as nothing', async () => {
    let sent: RequestInitLike | undefined;
    const client = createApiClient(async (_url, init) => {
      sent = init;
      return answer(204);
    });
    await expect(client.post('/logout')).resolves.toBeUndefined();
    expect(sent?.body).toBeUndefined();
    expect(sent?.headers).toEqual({ Accept: 'application/json' });
  });

  it("throws the server's error as an ApiError: status, code, message, fields and Retry-After", async () => {
    const client = createApiClient(async (url) =>
      url === '/login'
        ? answer(429, { error: { code: 'too_many_requests', message: 'Slow down.' } }, { 'Retry-After': ' 30 ' })
        : answer(400, {
            error: { code: 'invalid_request', message: 'Check the fields.', fields: { title: 'Required.' } },
          }),
    );

    const limited = await client.post('/login', {}).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      message: 'Slow down.',
      retryAfterSeconds: 30,
    });

    const invalid = await client.put('/api/x', {}).catch((error: unknown) => error);
    expect(invalid).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'invalid_request',
      fields: { title: 'Required.' },
      retryAfterSeconds: null,
    });
  });

  it('sends a DELETE without a body, and reads the problems of a refused change beside or inside the error', async () => {
    const sent: Array<[string, RequestInitLike]> = [];
    const client = createApiClient(async (url, init) => {
      sent.push([url, init]);
      if (url === '/api/remotes/r/canary') return answer(204);
      if (url === '/api/remotes/r/activate') {
        return answer(400, { error: { code: 'invalid_request', message: 'Refused.' }, problems: ['a breaks', 7] });
      }
      return answer(400, { error: { code: 'invalid_request', message: 'Refused.', problems: ['b breaks'] } });
    });

    await expect(client.delete('/api/remotes/r/canary')).resolves.toBeUndefined();
    expect(sent[0]?.[1]).toMatchObject({ method: 'DELETE' });
    expect(sent[0]?.[1].body).toBeUndefined();
    await expect(client.post('/api/remotes/r/activate', { version: '2' })).rejects.toMatchObject({
      problems: ['a breaks'],
    });
    await expect(client.post('/api/remotes/r/releases', {})).rejects.toMatchObject({ problems: ['b breaks'] });
  });

  it('reads which deleted record a 404 is about, when the error body says so in the shape of the contract', async () => {
    const deletedRecord = { resource: 'articles', id: 44, restorableUntil: 1_700_000_000_000 };
    const client = createApiClient(async (url) => {
      const error = { code: 'not_found', message: 'It was deleted.' };
      if (url.endsWith('/44')) return answer(404, { error: { ...error, deletedRecord } });
      if (url.endsWith('/45'))
        return answer(404, { error: { ...error, deletedRecord: { ...deletedRecord, id: '45' } } });
      return answer(404, { error });
    });
    await expect(client.get('/api/resources/articles/records/44')).rejects.toMatchObject({
      status: 404,
      message: 'It was deleted.',
      deletedRecord,
    });
    await expect(client.get('/api/resources/articles/records/45')).rejects.toMatchObject({ deletedRecord: null });
    await expect(client.get('/api/resources/articles/records/46')).rejects.toMatchObject({ deletedRecord: null });
  });

  it('reads the record as stored from a refused save, when the error body carries one', async () => {
    const storedRecord = { id: 7, title: 'Theirs', label: 'Theirs' };
    const client = createApiClient(async (url) => {
      const error = { code: 'conflict', message: 'Saved since.', fields: { title: 'Saved since.' } };
      if (url.endsWith('/7')) return answer(409, { error: { ...error, storedRecord } });
      return answer(409, { error: { ...error, storedRecord: { ...storedRecord, id: '8' } } });
    });
    await expect(client.put('/api/resources/articles/records/7', {})).rejects.toMatchObject({
      status: 409,
      fields: { title: 'Saved since.' },
      storedRecord,
    });
    await expect(client.put('/api/resources/articles/records/8', {})).rejects.toMatchObject({ storedRecord: null });
  });

  it('says the server could not answer when the answer is not an error body, naming the request apart', async () => {
    const client = createApiClient(async () => answer(502));
    await expect(client.get('/slots')).rejects.toMatchObject({
      status: 502,
      code: 'internal',
      message: API_CLIENT_MESSAGES.noAnswer(502),
      request: 'GET /slots',
    });
  });

  it('turns a failed fetch into a network ApiError, but lets an abort through as it is', async () => {
    const refused = new TypeError('Failed to fetch');
    const client = createApiClient(async () => Promise.reject(refused));
    await expect(client.get('/me')).rejects.toMatchObject({
      status: 0,
      code: 'network',
      message: API_CLIENT_MESSAGES.unreachable,
      request: 'GET /me',
    });
    await expect(client.get('/me', { aborted: true })).rejects.toBe(refused);
  });

  describe('an answer whose body is no JSON', () => {
    /** A real `Response` (the runtime's, as a browser's fetch gives), its body sent as this text. */
    const sent = (status: number, text: string) => async () =>
      new Response(text, { status, headers: { 'Content-Type': 'text/html' } });
    const PROXY_PAGE = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';

    it('is an unreadable ApiError for a success with an HTML body (a proxy or a captive portal answering)', async () => {
      const failure = await createApiClient(sent(200, PROXY_PAGE))
        .get('/api/resources/articles/records')
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({
        status: 200,
        code: 'unreadable',
        message: API_CLIENT_MESSAGES.unreadable,
        request: 'GET /api/resources/articles/records',
      });
    });

    it('says the server could not answer for a failed status with an HTML body, with its status', async () => {
      await expect(createApiClient(sent(502, PROXY_PAGE)).post('/api/x', {})).rejects.toMatchObject({
        name: 'ApiError',
        status: 502,
        code: 'internal',
        message: API_CLIENT_MESSAGES.noAnswer(502),
        request: 'POST /api/x',
      });
    });

    it('is an unreadable ApiError for an empty body and for JSON cut short', async () => {
      for (const [status, text] of [
        [200, ''],
        [201, ''],
        [200, '{"records": [{"id": 1, "title": "Wel'],
      ] as const) {
        await expect(createApiClient(sent(status, text)).get('/api/x/1')).rejects.toMatchObject({
          status,
          code: 'unreadable',
          message: API_CLIENT_MESSAGES.unreadable,
          request: 'GET /api/x/1',
        });
      }
    });

    it('says a change may have been made when its answer is unreadable (trying again could make it twice)', async () => {
      for (const send of [
        (client: ReturnType<typeof createApiClient>) => client.post('/api/x', {}),
        (client: ReturnType<typeof createApiClient>) => client.put('/api/x/1', {}),
      ]) {
        await expect(send(createApiClient(sent(201, '')))).rejects.toMatchObject({
          code: 'unreadable',
          message: API_CLIENT_MESSAGES.unreadableChange,
        });
      }
    });

    it("is an unreadable ApiError for a body cut off without the page's signal (a navigation), not for an abort", async () => {
      const cut = new DOMException('The operation was aborted.', 'AbortError');
      const client = createApiClient(async () => ({ ok: true, status: 200, json: () => Promise.reject(cut) }));
      await expect(client.get('/meta')).rejects.toMatchObject({ status: 200, code: 'unreadable' });
      // The page's own abort cut it: let through as it is, as an abort of the fetch itself.
      await expect(client.get('/meta', { aborted: true })).rejects.toBe(cut);
    });

    it('gives out a JSON null as null, and a 204 as nothing', async () => {
      await expect(createApiClient(sent(200, 'null')).get('/api/x')).resolves.toBeNull();
      await expect(createApiClient(async () => new Response(null, { status: 204 })).delete('/api/x')).resolves.toBe(
        undefined,
      );
    });
  });

  it("uses the runtime's fetch when given none, looked up at each request", async () => {
    const original = globalThis.fetch;
    const fetchMock = jest.fn(async () => answer(200, { user: null }));
    const client = createApiClient();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    try {
      await expect(client.get('/me')).resolves.toEqual({ user: null });
      expect(fetchMock).toHaveBeenCalledWith('/me', expect.objectContaining({ credentials: 'same-origin' }));
    } finally {
      globalThis.fetch = original;
    }
  });
});

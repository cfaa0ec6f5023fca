import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import type request from 'supertest';
import { ERROR_MESSAGES, JSON_DEPTH_MAX } from '../../shared';
import { createDemoApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { JSON_BODY_MESSAGES, type JsonBodyCoding } from './require-json-body';

/** A record save as the record page sends it, with the body's bytes sent as they are (no re-serialising). */
const RECORD = '/api/resources/articles/records/6';

const COMPRESS: Readonly<Record<JsonBodyCoding, (body: string) => Buffer>> = {
  gzip: (body) => zlib.gzipSync(body),
  deflate: (body) => zlib.deflateSync(body),
  br: (body) => zlib.brotliCompressSync(body),
};

describe('requireJsonBody: charset and content coding', () => {
  let testApp: TestApp;
  let agent: request.Agent;

  beforeAll(async () => {
    testApp = await createDemoApp();
    agent = await signedInAgent(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const put = (headers: Record<string, string>, body: string | Buffer) =>
    agent
      .put(RECORD)
      .set(headers)
      .serialize((raw: unknown) => raw as string)
      .send(body);

  it('refuses a body nested deeper than JSON_DEPTH_MAX with 400 saying so, and reads one at the limit', async () => {
    // `{"a":{"a":…1}}`, `depth` objects deep.
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const slot = (props: string) =>
      `{"document":{"remotes":[{"name":"team_marketing","slots":{"dashboard-after-cards":[{"component":"Welcome","props":${props}}]}}]}}`;
    // Twenty thousand levels fit in 120 KB: refused before any route's code reads them (recursively, most of it).
    const deep = await agent
      .put('/api/placements/draft')
      .type('json')
      .send(slot(nested(20_000)));
    expect(deep.status).toBe(400);
    expect(deep.body.error).toEqual({ code: 'invalid_request', message: JSON_BODY_MESSAGES.tooDeep });
    // At the limit (the document's own levels counted), the route reads it and answers for itself.
    const atLimit = await agent
      .put('/api/placements/draft')
      .type('json')
      .send(slot(nested(JSON_DEPTH_MAX - 7)));
    expect(atLimit.body.error?.message).not.toBe(JSON_BODY_MESSAGES.tooDeep);
    expect(atLimit.status).toBeLessThan(500);
  });

  it.each(['latin1', 'ISO-8859-1', 'utf-16', 'utf8', '"windows-1252"'])(
    'refuses JSON in charset %s with 415 saying only UTF-8 is accepted',
    async (charset) => {
      const response = await put({ 'Content-Type': `application/json; charset=${charset}` }, '{"title":"x"}');
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCharset },
      });
    },
  );

  it.each(['utf-8', 'UTF-8', '"utf-8"'])('accepts charset %s', async (charset) => {
    const response = await put({ 'Content-Type': `application/json; charset=${charset}` }, '{"title":"In UTF-8 ✓"}');
    expect(response.status).toBe(200);
    expect(response.body.record.title).toBe('In UTF-8 ✓');
  });

  it.each(['zstd', 'compress', 'x-unknown', 'gzip, br'])(
    'refuses Content-Encoding %s with 415 naming the codings that work',
    async (coding) => {
      const response = await put({ 'Content-Type': 'application/json', 'Content-Encoding': coding }, '{"title":"x"}');
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCoding },
      });
      expect(response.body.error.message).toContain('gzip, deflate or br');
    },
  );

  it.each(Object.keys(COMPRESS) as JsonBodyCoding[])('reads a body compressed with %s', async (coding) => {
    const title = `Sent with ${coding}`;
    const response = await put(
      { 'Content-Type': 'application/json', 'Content-Encoding': coding },
      COMPRESS[coding](JSON.stringify({ title })),
    );
    expect(response.status).toBe(200);
    expect(response.body.record.title).toBe(title);
  });

  it.each(Object.keys(COMPRESS) as JsonBodyCoding[])(
    'answers 400 saying so when a body said to be %s is not',
    async (coding) => {
      const response = await put({ 'Content-Type': 'application/json', 'Content-Encoding': coding }, '{"title":"x"}');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { code: 'invalid_request', message: JSON_BODY_MESSAGES.undecodable(coding) },
      });
    },
  );

  it.each([
    ['Latin-1 bytes', Buffer.from('{"title":"Caf\xe9 cr\xe8me"}', 'latin1')],
    ['a character cut short', Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])],
    [
      'an encoded surrogate',
      Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ],
    ['Latin-1 bytes, gzipped', zlib.gzipSync(Buffer.from('{"title":"Caf\xe9"}', 'latin1'))],
  ])('refuses %s with 400 saying UTF-8 is needed, and saves nothing', async (_what, bytes) => {
    const before = (await agent.get(RECORD).expect(200)).body.record.title as string;
    const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
    const response = await put(
      { 'Content-Type': 'application/json', ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}) },
      bytes,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'invalid_request', message: JSON_BODY_MESSAGES.notUtf8 } });
    expect((await agent.get(RECORD).expect(200)).body.record.title).toBe(before);
  });

  it('still refuses another content type with the content-type message', async () => {
    const response = await put({ 'Content-Type': 'text/plain; charset=latin1' }, '{"title":"x"}');
    expect(response.status).toBe(415);
    expect(response.body.error.message).toBe(ERROR_MESSAGES.unsupportedMediaType);
  });

  it('counts the limit on the decompressed body', async () => {
    const response = await put(
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      // Past the most an articles record may need (its body's 20,000 characters, twice, as JSON at its longest).
      COMPRESS.gzip(JSON.stringify({ title: 'x'.repeat(512 * 1024) })),
    );
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });
});

describe('requireJsonBody: requests written byte for byte', () => {
  let testApp: TestApp;
  let server: http.Server;

  beforeAll(async () => {
    testApp = await createDemoApp();
    server = http.createServer(testApp.app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  /** Sends `request` as it is written, and reads the answer until the server closes the connection. */
  const exchange = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = server.address() as net.AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('error', reject);
      socket.once('close', () => resolve(received));
      socket.write(request);
    });

  it('refuses a body declared over the limit with 413 before it is read, and the connection closes (a client announcing more than it sends)', async () => {
    // Announces 95 MiB and sends seven bytes: without the early refusal the server waits for the rest.
    const received = await exchange(
      'POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 99999999\r\n\r\n{"a":1}',
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string; message: string };
    };
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.message).toMatch(
      /^Request body too large: this request carries at most 16 KiB of JSON \(this one: 97657 KiB\)\.$/,
    );
  });

  it.each([
    ['Content-Length: 0', 'Content-Length: 0\r\n\r\n'],
    ['chunked, no chunk', 'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['neither header', '\r\n'],
  ])(
    'refuses a request with no body with 400 saying it is empty (%s): the parser read no bytes as {}',
    async (_what, framing) => {
      const received = await exchange(
        `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n${framing}`,
      );
      expect(received).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
        error: { code: 'invalid_request', message: JSON_BODY_MESSAGES.empty },
      });
    },
  );
});

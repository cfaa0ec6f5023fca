/**
 * httpRequestAttributes: the HTTP instrumentation's attributes of a request's span, the same keys, values and order as
 * its own function gives, for requests sent as raw bytes to a real node:http server: plain ones worked out from
 * their strings, the others (a query, a path the URL parser changes, an odd host, forwarding headers, an unknown
 * method) left to the instrumentation.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Attributes } from '@opentelemetry/api';
import * as instrumentationUtils from '@opentelemetry/instrumentation-http/build/src/utils';
import { diag } from '@opentelemetry/api';
import { httpRequestAttributes } from './http-request-attributes';

const theInstrumentations = instrumentationUtils.getIncomingRequestAttributes;

let server: http.Server;
let port: number;
/** What the last request got from each function, and whether ours asked the instrumentation. */
let seen: { ours: Attributes; theirs: Attributes; delegated: boolean } | undefined;

beforeAll(async () => {
  const delegated = jest.spyOn(instrumentationUtils, 'getIncomingRequestAttributes');
  server = http.createServer((req, res) => {
    delegated.mockClear();
    const ours = httpRequestAttributes(req);
    const theirs = theInstrumentations(req, { component: 'http', enableSyntheticSourceDetection: false }, diag);
    seen = { ours, theirs, delegated: delegated.mock.calls.length > 0 };
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  jest.restoreAllMocks();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `head` (a request line and its headers, without the blank line) on a socket of its own; what the server saw. */
async function send(head: string): Promise<NonNullable<typeof seen>> {
  seen = undefined;
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`${head}\r\nConnection: close\r\n\r\n`));
    socket.on('data', () => undefined);
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  if (seen === undefined) throw new Error(`the server answered no request for ${JSON.stringify(head)}`);
  return seen;
}

function expectTheInstrumentations({ ours, theirs }: NonNullable<typeof seen>): void {
  expect(ours).toEqual(theirs);
  // The same order too: the encoders write the attributes in it.
  expect(Object.keys(ours)).toEqual(Object.keys(theirs));
}

const PLAIN = () => [
  `GET /slots HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: wrk/4.1`,
  'GET /slots HTTP/1.1\r\nHost: localhost',
  'GET /slots HTTP/1.0\r\nHost: Admin.Example.COM:8443\r\nUser-Agent: curl/8.5',
  "POST /api/a_b/c-d.e~f!g$h&i'j(k)l*m+n,o;p=q:r@s/ HTTP/1.1\r\nHost: example.com:080",
  'HEAD /remotes/app/.well-known/remoteEntry.js HTTP/1.1\r\nHost: slots.internal',
  'DELETE /... HTTP/1.1\r\nHost: a-b.c',
];

const ODD = [
  'GET /slots?location=login&token=secret HTTP/1.1\r\nHost: example.com',
  'GET /slots? HTTP/1.1\r\nHost: example.com',
  'GET /a/../b HTTP/1.1\r\nHost: example.com',
  'GET /a/./b HTTP/1.1\r\nHost: example.com',
  'GET /a/.. HTTP/1.1\r\nHost: example.com',
  'GET //evil.example/x HTTP/1.1\r\nHost: example.com',
  'GET /%2e%2e/x HTTP/1.1\r\nHost: example.com',
  'GET /a%20b/%7Bc%7D HTTP/1.1\r\nHost: example.com',
  'GET /a|b^c`d{e} HTTP/1.1\r\nHost: example.com',
  'GET /slots#part HTTP/1.1\r\nHost: example.com',
  'OPTIONS * HTTP/1.1\r\nHost: example.com',
  'GET http://other.example/slots HTTP/1.1\r\nHost: example.com',
  'GET /slots HTTP/1.0',
  'GET /slots HTTP/1.1\r\nHost: 999.1.1.1',
  'GET /slots HTTP/1.1\r\nHost: example.com:70000',
  'GET /slots HTTP/1.1\r\nHost: [::1]:8080',
  'GET /slots HTTP/1.1\r\nHost: ex ample.com',
  'GET /slots HTTP/1.1\r\nHost: example.com\r\nX-Forwarded-For: 203.0.113.7, 10.0.0.1',
  'GET /slots HTTP/1.1\r\nHost: example.com\r\nX-Forwarded-Host: public.example\r\nX-Forwarded-Proto: https',
  'GET /slots HTTP/1.1\r\nHost: example.com\r\nForwarded: for=198.51.100.2;host=public.example;proto=https',
  'PROPFIND /slots HTTP/1.1\r\nHost: example.com',
];

it('works a plain request’s attributes out itself, as the instrumentation does', async () => {
  for (const head of PLAIN()) {
    const answer = await send(head);
    expectTheInstrumentations(answer);
    expect({ head, delegated: answer.delegated }).toEqual({ head, delegated: false });
  }
});

it('leaves any other request to the instrumentation', async () => {
  for (const head of ODD) {
    const answer = await send(head);
    expectTheInstrumentations(answer);
    expect({ head, delegated: answer.delegated }).toEqual({ head, delegated: true });
  }
});

it('redacts a secret sent in a query, in any case, as the logs do, besides the signatures the instrumentation does', async () => {
  const answer = await send('GET /api/resources?Password=hunter2&secret=s2&q=ok&sig=abc HTTP/1.1\r\nHost: example.com');
  expect(answer.delegated).toBe(true);
  expect(answer.ours['url.query']).toBe('Password=[redacted]&secret=[redacted]&q=ok&sig=REDACTED');
  expect(answer.theirs['url.query']).toContain('hunter2');
});

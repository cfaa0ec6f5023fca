/**
 * The descriptor of a remote declared by entry, read over real HTTP as the registry and the releases read it: what
 * its origin answers that is no descriptor is a bad answer whose reason quotes none of it, and a redirect is never
 * followed.
 */
import type http from 'node:http';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { HttpDescriptorSource } from './http-descriptor-source';

/** How the origin answers the descriptor's path (anything else: 404). */
let answer: (response: http.ServerResponse) => void;
let origin: HttpFixtureServer;
let elsewhere: HttpFixtureServer;

beforeEach(async () => {
  elsewhere = await startHttpFixtureServer((_req, res) => res.writeHead(200).end('{}'));
  origin = await startHttpFixtureServer((req, res) => {
    if (req.url === `/team_billing/${REMOTE_DESCRIPTOR_FILE}`) answer(res);
    else res.writeHead(404).end();
  });
});
afterEach(async () => {
  await origin.close();
  await elsewhere.close();
});

const descriptorUrl = () => `${origin.url}/team_billing/${REMOTE_DESCRIPTOR_FILE}`;
const read = () =>
  new HttpDescriptorSource({ timeoutMs: 2000 }).read({
    name: 'team_billing',
    entry: `${origin.url}/team_billing/mf-manifest.json`,
    descriptorUrl: descriptorUrl(),
  });

it('does not follow a redirect, naming where it pointed, and drops the rest of the answer', async () => {
  // The redirect's body never ends: the server hears the connection close only if the reader cancels it.
  let closed!: Promise<void>;
  answer = (res) => {
    closed = new Promise((resolve) => res.once('close', resolve));
    res.writeHead(302, { Location: `${elsewhere.url}/secret` });
    const timer = setInterval(() => res.write('x'.repeat(16 * 1024)), 5);
    res.once('close', () => clearInterval(timer));
  };
  expect(await read()).toEqual({
    status: 'failing',
    failure: 'bad-answer',
    reason:
      `${descriptorUrl()} answered 302, a redirect to ${elsewhere.url}: files are read at the address given, ` +
      'redirects are not followed',
  });
  await closed;
  expect(elsewhere.requests).toEqual([]);
});

it('names a redirect without a usable Location by its status alone', async () => {
  answer = (res) => res.writeHead(308).end();
  expect(await read()).toMatchObject({
    failure: 'bad-answer',
    reason: `${descriptorUrl()} answered 308, a redirect: files are read at the address given, redirects are not followed`,
  });
});

it('says where invalid JSON went wrong when the parser says so, without quoting the text', async () => {
  answer = (res) => res.writeHead(200).end('{ "name": "team_billing", }');
  expect(await read()).toMatchObject({
    failure: 'bad-answer',
    reason: `${descriptorUrl()} is not valid JSON (position 26)`,
  });
});

it('says a page answered instead of the descriptor, as an origin’s fallback page does for a missing file', async () => {
  const page = `${descriptorUrl()} answered 200 with an HTML page, not the descriptor (is slots-remote.json missing from the folder, answered by the origin's fallback page?)`;
  answer = (res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<p>Welcome</p>');
  expect(await read()).toMatchObject({ failure: 'bad-answer', reason: page });
  answer = (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('\n  <!DOCTYPE html><html></html>');
  expect(await read()).toMatchObject({ failure: 'bad-answer', reason: page });
});

it('gives the reason of a failed check once, naming the file once', async () => {
  answer = (res) => res.writeHead(200).end(JSON.stringify({ name: 'team_billing', components: 'InvoiceBanner' }));
  expect(await read()).toMatchObject({
    failure: 'bad-answer',
    reason: `${descriptorUrl()}: "components" must be a list of component names, got "InvoiceBanner"`,
  });
});

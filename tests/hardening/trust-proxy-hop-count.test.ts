import { startAppServer, type AppServer } from '../../testing/system/app-server';

/**
 * Issue 25 point 3: `TRUST_PROXY=2` behind one proxy lets clients choose their address. The real server says at
 * start-up what a hop count must be, and warns once, naming the setting and what to set, when requests arrive
 * through fewer proxies than trusted (here: one `X-Forwarded-For` address, as the README's single nginx sends).
 */
jest.setTimeout(60_000);

const WARNING = /TRUST_PROXY=2 trusts 2 proxy hops, but a request arrived through 1 /;

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ env: { TRUST_PROXY: '2' } });
});
afterAll(() => server?.stop());

const throughOneProxy = (address: string) =>
  fetch(`${server.url}/readyz`, { headers: { 'X-Forwarded-For': address } }).then((response) => response.status);

it('says at start-up that the hop count must be exactly the number of proxies', async () => {
  await server.process.waitForOutput(/TRUST_PROXY=2 trusts X-Forwarded-For from 2 proxy hops: it must be exactly/);
});

it('warns once, naming TRUST_PROXY and what to set, when requests come through one proxy', async () => {
  // A request with no X-Forwarded-For did not come through a proxy: nothing to warn about.
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  expect(server.process.stdout() + server.process.stderr()).not.toMatch(WARNING);
  for (let i = 1; i <= 5; i++) expect(await throughOneProxy(`198.51.100.${i}`)).toBe(200);
  await server.process.waitForOutput(WARNING);
  const output = server.process.stdout() + server.process.stderr();
  expect(output.match(new RegExp(WARNING.source, 'g'))).toHaveLength(1);
  expect(output).toContain('Set TRUST_PROXY to the number of proxies in front of this server (at most 1 here)');
});

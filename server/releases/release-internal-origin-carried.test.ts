/**
 * A release of a remote without `"releaseOrigins"` kept off an internal IPv4 address written inside an IPv6 one
 * (NAT64 `64:ff9b::/96`, 6to4, IPv4-compatible, Teredo: internal-address-carried.ts), over real HTTP, names
 * resolved by a resolver the test gives: refused at the check as at the request, as the IPv4 address it carries.
 * The rest of the guard: release-internal-origin.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { getFreePort } from '../../testing/system/free-port';
import { scriptedResolver, type ScriptedResolver } from '../../testing/server/scripted-resolver';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/** The names the server resolves, and what it asked (scripted-resolver.ts). */
let dns: ScriptedResolver;
let declared: TempDir;
let testApp: TestApp | undefined;

/** Starts the app, team_billing declared with its own entry down: in production on HOST=0.0.0.0, or outside it. */
async function start(production: boolean): Promise<TestApp> {
  const remotes = [{ name: 'team_billing', entry: `http://127.0.0.1:${await getFreePort()}/team_billing/x.json` }];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  testApp = await createTestApp({
    ...(production ? { nodeEnv: 'production' as const } : {}),
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json'), ...(production ? { HOST: '0.0.0.0' } : {}) },
    remoteDescriptorTimeoutMs: 1500,
    resolveRemoteHost: dns.resolve,
  });
  return testApp;
}

async function publish(entry: string): Promise<string> {
  const { app } = testApp!;
  const { token } = await app.releases.teamTokens.create('team_billing', null);
  const answer = await request(app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version: '1.0.0', entry })
    .expect(400);
  return answer.body.error.message as string;
}

beforeEach(() => {
  dns = scriptedResolver();
  declared = makeTempDir('slots-release-carried-');
});
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  declared.remove();
});

describe('a remote without "releaseOrigins", in production on HOST=0.0.0.0', () => {
  it.each([
    ['64:ff9b::7f00:1', 'a loopback address (127.0.0.1, in NAT64 form)'],
    ['2002:a00:5::1', 'a private address (10.0.0.5, in 6to4 form)'],
    ['::a9fe:a9fe', 'a link-local address (169.254.169.254, in IPv4-compatible form)'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffa', 'a private address (10.0.0.5, in Teredo client form)'],
  ])('refuses an entry whose name resolves to %s, asking nothing', async (answer, described) => {
    await start(true);
    dns.names.set('billing.example.test', [[answer]]);
    const entry = 'https://billing.example.test/v1/mf-manifest.json';
    expect(await publish(entry)).toBe(
      `"entry" "${entry}" is on https://billing.example.test, whose host resolves to ${answer}, ${described}: ` +
        `remote "team_billing" has no "releaseOrigins" in REMOTES_CONFIG, and without them a release is not taken ` +
        `from an address on the server's own network (the server would ask it), and nothing was asked there. If the ` +
        `team publishes from https://billing.example.test on purpose, ask the operators to add ` +
        `"https://billing.example.test" to the remote's "releaseOrigins" in REMOTES_CONFIG.`,
    );
    expect(dns.looked).toEqual(['billing.example.test']);
  });

  it("refuses an entry on a cloud's metadata address written in NAT64 form, resolving nothing", async () => {
    await start(true);
    expect(await publish('https://[64:ff9b::169.254.169.254]/v1/mf-manifest.json')).toContain(
      'is on https://[64:ff9b::a9fe:a9fe], whose host is a link-local address (169.254.169.254, in NAT64 form): ',
    );
    expect(dns.looked).toEqual([]);
  });

  it('refuses a name answering a public address at the check and 64:ff9b::7f00:1 at the request', async () => {
    await start(true);
    dns.names.set('rebind.test', [['203.0.113.10'], ['64:ff9b::7f00:1']]);
    expect(await publish('https://rebind.test/v1/mf-manifest.json')).toBe(
      `The release's descriptor cannot be read: https://rebind.test/v1/${REMOTE_DESCRIPTOR_FILE}: rebind.test ` +
        'resolved to 64:ff9b::7f00:1, a loopback address (127.0.0.1, in NAT64 form), which a release of a remote ' +
        'without "releaseOrigins" may not reach: nothing was asked there.',
    );
    expect(dns.looked).toEqual(['rebind.test', 'rebind.test']);
  });
});

describe('a remote without "releaseOrigins", in development (loopback allowed)', () => {
  it("refuses a name resolving to 64:ff9b::7f00:1: a translator's loopback, not this machine's", async () => {
    await start(false);
    dns.names.set('billing.test', [['64:ff9b::7f00:1']]);
    expect(await publish('http://billing.test/v1/mf-manifest.json')).toContain(
      'whose host resolves to 64:ff9b::7f00:1, a loopback address (127.0.0.1, in NAT64 form): remote "team_billing"',
    );
    expect(dns.looked).toEqual(['billing.test']);
  });
});

/**
 * @jest-environment node
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CommandRun } from '../../testing/server/run-server-command';
import { runSlotsRemote } from '../../testing/slots-remote-command';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { fingerprintOf, makeRefusedCertificates } from '../../testing/test-certificates';
import { RELEASE_TOKEN_ENV } from './release';

/**
 * The deployed build's check of `slots-remote release` against a team origin served over HTTPS whose certificate
 * Node.js does not take as it is: from the team's company's own authority, self-signed, for another name, expired.
 * Real TLS servers with certificates made here by openssl; the command in its own process, as a team runs it (Node
 * reads NODE_EXTRA_CA_CERTS only as it starts); the product a plain-http stand-in on this machine that counts what
 * reaches it.
 */
jest.setTimeout(60_000);

const REMOTE = 'team_billing';
const TOKEN = 'srt_team_billing_secret';
const TEAM_CA = 'Slots Test Team CA';
const FOLDER = '/team_billing/1.3.0/';
const NEVER_TURN_OFF =
  'Never set NODE_TLS_REJECT_UNAUTHORIZED=0 instead: it turns the check off for the product as well, and the token ' +
  'would go to whoever answers at its address.';
const ALSO_THERE =
  "The product's servers check the same certificate when you publish, and the staff's browsers when they load " +
  "your components: the product's operators trust it there too.";
const ONE_FILE =
  "A file may hold several certificates, one after the other: the product's authority too, when it needs one " +
  '(cat company-ca.pem origin-ca.pem > cas.pem).';

let dir: TempDir;
const file = (name: string) => path.join(dir.path, name);

/** The team's origin over HTTPS with the certificate `<name>.pem`, its build of 1.3.0 providing Hello only. */
async function startOrigin(name: string): Promise<{ server: https.Server; entry: string; origin: string }> {
  const server = https.createServer(
    { cert: readFileSync(file(`${name}.pem`)), key: readFileSync(file(`${name}.key`)) },
    (request, response) => {
      if (request.url !== `${FOLDER}slots-remote.json`) return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ name: REMOTE, components: ['Hello'], formComponents: [], props: {} }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, entry: `${origin}${FOLDER}mf-manifest.json` };
}

const origins = {} as Record<
  'company' | 'selfSigned' | 'otherName' | 'expired',
  Awaited<ReturnType<typeof startOrigin>>
>;
let product: { server: http.Server; origin: string; received: string[] };
let project: string;

beforeAll(async () => {
  dir = makeTempDir('slots-kit-origin-tls-');
  makeRefusedCertificates(dir.path, {
    authority: TEAM_CA,
    otherName: 'DNS:cdn.billing.example',
    selfSigned: 'billing origin',
  });
  origins.company = await startOrigin('company');
  origins.selfSigned = await startOrigin('self');
  origins.otherName = await startOrigin('other-name');
  origins.expired = await startOrigin('expired');

  const received: string[] = [];
  const server = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(201, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ remote: REMOTE, version: '1.3.0', entry: '', components: ['Hello'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  product = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };

  project = file('project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'team-billing', version: '1.3.0' }));
  writeFileSync(path.join(project, 'remote.ts'), `export default { name: '${REMOTE}', components: ['Hello'] };\n`);
});

afterAll(async () => {
  for (const server of [...Object.values(origins).map((origin) => origin.server), product.server]) {
    await new Promise((resolve) => server.close(resolve));
  }
  dir.remove();
});

beforeEach(() => {
  product.received.length = 0;
});

/** `slots-remote release` of `entry`, with NODE_EXTRA_CA_CERTS when `extraCaCerts` names a file here. */
function release(entry: string, extraCaCerts?: string, projectDir = project): Promise<CommandRun> {
  return runSlotsRemote(['release'], projectDir, {
    [RELEASE_TOKEN_ENV]: TOKEN,
    SLOTS_RELEASE_SERVER: product.origin,
    SLOTS_RELEASE_ENTRY: entry,
    ...(extraCaCerts === undefined ? {} : { NODE_EXTRA_CA_CERTS: file(extraCaCerts) }),
  });
}

describe("slots-remote release of a build on an origin whose certificate a company's own authority issued", () => {
  it('says the authority is not trusted here, names it, and how to trust it, sending nothing', async () => {
    const { origin, entry } = origins.company;
    expect(await release(entry)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `The certificate of your origin ${origin} is not trusted here (unable to verify the first certificate): it ` +
        `was issued by "${TEAM_CA}", an authority Node.js does not know, most often a company's own. The build ` +
        `deployed there could not be compared with remote.ts: nothing was sent to ${product.origin}.\n` +
        'Trust that authority for this command: give the path of its certificate, a PEM file your IT or whoever ' +
        'serves your origin has, in NODE_EXTRA_CA_CERTS, which Node reads as it starts: ' +
        'NODE_EXTRA_CA_CERTS=/path/to/company-ca.pem npm run release -- … (in CI, a variable of the job). ' +
        `${ONE_FILE} ${ALSO_THERE} When that authority is a public one, your origin leaves out the intermediate ` +
        `certificate that leads to it: add it to your origin's certificate file. ${NEVER_TURN_OFF}\n`,
    });
    expect(product.received).toEqual([]);
  });

  it('says NODE_EXTRA_CA_CERTS holds another authority when it does', async () => {
    const result = await release(origins.company.entry, 'other-ca.pem');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[1]).toBe(
      `NODE_EXTRA_CA_CERTS is set (${file('other-ca.pem')}) but holds no certificate of "${TEAM_CA}": add the ` +
        "certificate of the authority that issued your origin's to that file (a file Node could not read is named " +
        `in a warning above). ${ONE_FILE} ${ALSO_THERE} When that authority is a public one, your origin leaves out ` +
        "the intermediate certificate that leads to it: add it to your origin's certificate file. " +
        NEVER_TURN_OFF,
    );
    expect(product.received).toEqual([]);
  });

  it('compares the build there once NODE_EXTRA_CA_CERTS holds the authority, beside another one', async () => {
    writeFileSync(file('both.pem'), readFileSync(file('other-ca.pem'), 'utf8') + readFileSync(file('ca.pem'), 'utf8'));
    const published = await release(origins.company.entry, 'both.pem');
    expect(published).toMatchObject({ code: 0, stderr: '' });
    expect(product.received).toEqual([`POST /api/remotes/${REMOTE}/releases`]);

    // A build deployed before a component was added is seen over HTTPS as over http.
    const declaring = file('declaring');
    mkdirSync(declaring, { recursive: true });
    writeFileSync(path.join(declaring, 'package.json'), JSON.stringify({ name: 'team-billing', version: '1.3.0' }));
    writeFileSync(
      path.join(declaring, 'remote.ts'),
      `export default { name: '${REMOTE}', components: ['Hello', 'PaymentStatus'] };\n`,
    );
    const stale = await release(origins.company.entry, 'both.pem', declaring);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(
      /^The build deployed at https:\/\/127\.0\.0\.1:\d+\/team_billing\/1\.3\.0\/ lacks "PaymentStatus"/,
    );
    expect(product.received).toHaveLength(1);
  });
});

describe('slots-remote release of a build on an origin with a self-signed certificate', () => {
  it('gives its fingerprint to compare, and says to trust the certificate itself; then publishes', async () => {
    const fingerprint = fingerprintOf(dir.path, 'self');
    const refused = await release(origins.selfSigned.entry);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([
      `The certificate of your origin ${origins.selfSigned.origin} is not trusted here (self-signed certificate): ` +
        `it signs itself (subject "billing origin", SHA-256 ${fingerprint}), no authority Node.js knows vouches for ` +
        `it. The build deployed there could not be compared with remote.ts: nothing was sent to ${product.origin}.`,
      "When it is your origin's own certificate, trust it for this command: give the path of that certificate, a " +
        'PEM file, in NODE_EXTRA_CA_CERTS, which Node reads as it starts: NODE_EXTRA_CA_CERTS=/path/to/origin-cert.pem ' +
        `npm run release -- … (in CI, a variable of the job). ${ONE_FILE} ${ALSO_THERE} A certificate of your ` +
        `company's authority, or of a public one, spares them that. ${NEVER_TURN_OFF}`,
      '',
    ]);
    expect(product.received).toEqual([]);

    expect(await release(origins.selfSigned.entry, 'self.pem')).toMatchObject({ code: 0, stderr: '' });
    expect(product.received).toHaveLength(1);
  });
});

describe('slots-remote release of a build on an origin whose certificate is trusted but wrong', () => {
  it('names the names a certificate for another host holds, and the --entry to give', async () => {
    const { origin, entry } = origins.otherName;
    const { port } = new URL(origin);
    expect(await release(entry, 'ca.pem')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `The certificate of your origin ${origin} is not for "127.0.0.1": it names cdn.billing.example. Nothing was ` +
        `sent to ${product.origin}: the product's servers and the staff's browsers refuse it too.\n` +
        'Give --entry or SLOTS_RELEASE_ENTRY with a name the certificate holds, e.g. ' +
        `https://cdn.billing.example:${port}${FOLDER}mf-manifest.json, or serve your origin with a certificate that ` +
        `names "127.0.0.1". ${NEVER_TURN_OFF}\n`,
    });
    expect(product.received).toEqual([]);
  });

  it('says when an expired certificate expired and that whoever serves the origin renews it', async () => {
    const result = await release(origins.expired.entry, 'ca.pem');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The certificate of your origin ${origins.expired.origin.replace(/\./g, '\\.')} expired on 2020-01-02 ` +
            "00:00 UTC; this machine's clock says \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. Nothing was sent to " +
            `${product.origin.replace(/\./g, '\\.')}: the product's servers and the staff's browsers refuse it too\\.$`,
        ),
      ),
      'Renew it (whoever serves your origin does: your team, your CDN or host), then publish again. Trusting its ' +
        'authority (NODE_EXTRA_CA_CERTS) does not help.',
      '',
    ]);
    expect(product.received).toEqual([]);
  });
});

/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CommandRun } from '../../testing/server/run-server-command';
import { runSlotsRemote } from '../../testing/slots-remote-command';
import {
  fingerprintOf,
  makeRefusedCertificates,
  makeServerCertificate,
  THIS_MACHINE,
} from '../../testing/test-certificates';
import { RELEASE_TOKEN_ENV } from './release';

/**
 * `slots-remote release` against a product served over HTTPS with a certificate Node.js does not take as it is: from
 * a company's own authority, self-signed, for another name, expired, not valid yet. Real TLS servers with
 * certificates made here by openssl; the command in its own process, as a team runs it, since Node reads
 * NODE_EXTRA_CA_CERTS only as it starts.
 */
jest.setTimeout(60_000);

const REMOTE = 'team_records';
const TOKEN = 'srt_team_records_secret';
const ENTRY = 'https://cdn.example/team_records/2.0.0/mf-manifest.json';
const COMPANY_CA = 'Slots Test Company CA';

let dir: string;
let project: string;
const file = (name: string) => path.join(dir, name);

interface Product {
  server: Server;
  origin: string;
  /** The requests that reached the product's API: none when the certificate was refused. */
  received: string[];
}

/** The product's publishing endpoint over HTTPS with the certificate `cert` (PEM, its chain after it) and `key`. */
async function startProduct(cert: string, key: string): Promise<Product> {
  const received: string[] = [];
  const server = createServer({ cert: readFileSync(file(cert)), key: readFileSync(file(key)) }, (request, response) => {
    received.push(`${request.method} ${request.url} ${request.headers.authorization}`);
    request.resume();
    request.on('end', () => {
      const ok =
        request.url === `/api/remotes/${REMOTE}/releases` && request.headers.authorization === `Bearer ${TOKEN}`;
      response.writeHead(ok ? 201 : 401, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify(
          ok
            ? { remote: REMOTE, version: '2.0.0', entry: ENTRY, components: [] }
            : { error: { code: 'unauthenticated', message: 'A valid team token is needed.' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const products: Record<'company' | 'companyChain' | 'selfSigned' | 'otherName' | 'expired' | 'notYetValid', Product> =
  {} as never;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'slots-kit-tls-'));
  makeRefusedCertificates(dir, {
    authority: COMPANY_CA,
    otherName: 'DNS:admin.example.com',
    selfSigned: 'localhost',
  });
  writeFileSync(file('company-chain.pem'), readFileSync(file('company.pem'), 'utf8') + readFileSync(file('ca.pem')));
  makeServerCertificate(dir, 'not-yet-valid', THIS_MACHINE, '20990101000000Z', '20990102000000Z');
  products.company = await startProduct('company.pem', 'company.key');
  products.companyChain = await startProduct('company-chain.pem', 'company.key');
  products.selfSigned = await startProduct('self.pem', 'self.key');
  products.otherName = await startProduct('other-name.pem', 'other-name.key');
  products.expired = await startProduct('expired.pem', 'expired.key');
  products.notYetValid = await startProduct('not-yet-valid.pem', 'not-yet-valid.key');

  project = path.join(dir, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'team-records', version: '2.0.0' }));
  writeFileSync(path.join(project, 'remote.ts'), `export default { name: '${REMOTE}', components: [] };\n`);
});

afterAll(async () => {
  for (const product of Object.values(products)) {
    await new Promise((resolve) => product.server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** `slots-remote release` against `product`, with NODE_EXTRA_CA_CERTS when `extraCaCerts` names a file here. */
function release(product: Product, extraCaCerts?: string, server = product.origin): Promise<CommandRun> {
  return runSlotsRemote(['release'], project, {
    [RELEASE_TOKEN_ENV]: TOKEN,
    SLOTS_RELEASE_SERVER: server,
    SLOTS_RELEASE_ENTRY: ENTRY,
    ...(extraCaCerts === undefined ? {} : { NODE_EXTRA_CA_CERTS: file(extraCaCerts) }),
  });
}

const NEVER_TURN_OFF =
  'Never set NODE_TLS_REJECT_UNAUTHORIZED=0 instead: the token would go to whoever answers at that address.';

describe("slots-remote release to a product whose certificate a company's own authority issued", () => {
  it('says the authority is not trusted here, names it, and how to trust it, sending nothing', async () => {
    const { origin, received } = products.company;
    expect(await release(products.company)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `The certificate of ${origin} is not trusted here (unable to verify the first certificate): it was issued ` +
        `by "${COMPANY_CA}", an authority Node.js does not know, most often a company's own. Nothing was sent, ` +
        'the token included.\n' +
        "Trust that authority for this command: give the path of its certificate, a PEM file your IT or the product's " +
        'operators have, in NODE_EXTRA_CA_CERTS, which Node reads as it starts: ' +
        'NODE_EXTRA_CA_CERTS=/path/to/company-ca.pem npm run release -- … (in CI, a variable of the job). When that ' +
        'authority is a public one, the server leaves out the intermediate certificate that leads to it: the ' +
        `product's operators add it to the server's certificate file. ${NEVER_TURN_OFF}\n`,
    });
    expect(received).toEqual([]);
  });

  it('names the authority at the top of the chain the server sends (Node: "self-signed certificate in certificate chain")', async () => {
    const result = await release(products.companyChain);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `The certificate of ${products.companyChain.origin} is not trusted here (self-signed certificate in ` +
        `certificate chain): it was issued by "${COMPANY_CA}", an authority Node.js does not know, most often a ` +
        "company's own. Nothing was sent, the token included.",
      expect.stringMatching(
        /^Trust that authority for this command: .* NODE_EXTRA_CA_CERTS=\/path\/to\/company-ca\.pem /,
      ),
      '',
    ]);
    // The server sent the authority itself: no intermediate is missing.
    expect(result.stderr).not.toContain('intermediate');
    expect(products.companyChain.received).toEqual([]);
  });

  it('publishes once NODE_EXTRA_CA_CERTS holds the authority, by address or by name', async () => {
    for (const product of [products.company, products.companyChain]) {
      for (const server of [product.origin, product.origin.replace('127.0.0.1', 'localhost')]) {
        const result = await release(product, 'ca.pem', server);
        expect({ server, ...result, stdout: result.stdout.split('\n')[0] }).toEqual({
          server,
          code: 0,
          stdout: `Published ${REMOTE} 2.0.0 (entry ${ENTRY}).`,
          stderr: '',
        });
      }
    }
    expect(products.company.received).toHaveLength(2);
  });

  it('says NODE_EXTRA_CA_CERTS holds another authority when it does', async () => {
    products.company.received.length = 0;
    const result = await release(products.company, 'other-ca.pem');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[1]).toBe(
      `NODE_EXTRA_CA_CERTS is set (${file('other-ca.pem')}) but holds no certificate of "${COMPANY_CA}": add the ` +
        "certificate of the authority that issued the product's to that file, not the product's own (a file Node " +
        'could not read is named in a warning above). A file may hold several certificates, one after the other: ' +
        "your origin's authority too, when it needs one (cat company-ca.pem origin-ca.pem > cas.pem). When that " +
        'authority is a public one, the server leaves out ' +
        "the intermediate certificate that leads to it: the product's operators add it to the server's " +
        `certificate file. ${NEVER_TURN_OFF}`,
    );
    expect(products.company.received).toHaveLength(0);
  });
});

describe('slots-remote release to a product with a self-signed certificate', () => {
  it('gives its fingerprint to compare, and says to trust the certificate itself; then publishes', async () => {
    const fingerprint = fingerprintOf(dir, 'self');
    const refused = await release(products.selfSigned);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([
      `The certificate of ${products.selfSigned.origin} is not trusted here (self-signed certificate): it signs ` +
        `itself (subject "localhost", SHA-256 ${fingerprint}), no authority Node.js knows vouches for it. Nothing ` +
        'was sent, the token included.',
      "When it is the product's own certificate (ask its operators for the file, or compare its fingerprint with " +
        'theirs), trust it for this command: give the path of that certificate, a PEM file, in ' +
        'NODE_EXTRA_CA_CERTS, which Node reads as it starts: NODE_EXTRA_CA_CERTS=/path/to/product-cert.pem npm run ' +
        `release -- … (in CI, a variable of the job). ${NEVER_TURN_OFF}`,
      '',
    ]);
    expect(products.selfSigned.received).toEqual([]);

    // Another certificate given: the product's is to be added to that file, which may hold the origin's already.
    const otherGiven = await release(products.selfSigned, 'ca.pem');
    expect(otherGiven.stderr.split('\n')[1]).toBe(
      `NODE_EXTRA_CA_CERTS is set (${file('ca.pem')}) but does not hold this certificate: add the product's own ` +
        'certificate, whose fingerprint is above, to that file (a file Node could not read is named in a warning ' +
        "above). A file may hold several certificates, one after the other: your origin's certificate too, when it " +
        `needs one (cat company-ca.pem origin-ca.pem > cas.pem). ${NEVER_TURN_OFF}`,
    );
    expect(products.selfSigned.received).toEqual([]);

    const published = await release(products.selfSigned, 'self.pem');
    expect(published).toMatchObject({ code: 0, stderr: '' });
    expect(products.selfSigned.received).toHaveLength(1);
  });
});

describe('slots-remote release to a product whose certificate is trusted but wrong', () => {
  it('names the names a certificate for another host holds, and the --server to give', async () => {
    const { origin, received } = products.otherName;
    const { port } = new URL(origin);
    expect(await release(products.otherName, 'ca.pem')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `The certificate of ${origin} is not for "127.0.0.1": it names admin.example.com. Nothing was sent, the ` +
        'token included.\n' +
        'Give --server or SLOTS_RELEASE_SERVER with a name the certificate holds, e.g. ' +
        `https://admin.example.com:${port}: the address where staff open the product. When that is the address ` +
        `you gave, the product's operators need a certificate that names it. ${NEVER_TURN_OFF}\n`,
    });
    expect(received).toEqual([]);
  });

  it('says when an expired certificate expired and that its operators renew it', async () => {
    const result = await release(products.expired, 'ca.pem');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The certificate of ${products.expired.origin.replace(/\./g, '\\.')} expired on 2020-01-02 00:00 UTC; ` +
            "this machine's clock says \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. Nothing was sent, the token included\\.$",
        ),
      ),
      "Only the product's operators can renew it: tell them. Trusting its authority (NODE_EXTRA_CA_CERTS) does " +
        `not help. ${NEVER_TURN_OFF}`,
      '',
    ]);
    expect(products.expired.received).toEqual([]);
  });

  it('says from when a certificate not valid yet is, beside this machine’s clock', async () => {
    const result = await release(products.notYetValid, 'ca.pem');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^The certificate of \S+ is not valid yet \(from 2099-01-01 00:00 UTC\); this machine's clock says [^\n]+\. Nothing was sent, the token included\.\nSet this machine's clock right when it is behind; else tell the product's operators\./,
    );
    expect(products.notYetValid.received).toEqual([]);
  });
});

/**
 * @jest-environment node
 */
import { cpSync, createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildRemoteProject } from '../../testing/build-remote-project';
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { runSlotsRemote } from '../../testing/slots-remote-command';
import { daysFromNow, makeAuthority, makeServerCertificate, THIS_MACHINE } from '../../testing/test-certificates';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RELEASE_TOKEN_ENV } from './release';

/**
 * The kit over HTTPS from end to end, as a company runs it: the product (the real server) served with a certificate
 * of the company's own authority, the team's origin with one of the team's own authority, each trusted where it has
 * to be through NODE_EXTRA_CA_CERTS (the product's server trusts the team's; the team's release command both, from
 * one file). A remote built by the kit's webpack preset, deployed to a folder per version on that origin, published
 * with `slots-remote release` in its own process (Node reads NODE_EXTRA_CA_CERTS only as it starts).
 */
jest.setTimeout(180_000);

const REMOTE = 'team_billing';
const COMPANY_CA = 'Slots Test Company CA';
const TEAM_CA = 'Slots Test Billing Team CA';

let dir: TempDir;
const file = (name: string) => path.join(dir.path, name);
let project: string;
/** The team's origin: its folder holds one folder per version, as the guide deploys them. */
let origin: { server: https.Server; url: string; root: string };
let product: AppServer;
let token: string;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** A static origin over HTTPS with CORS, as a team's CDN serves its builds. */
async function startHttpsOrigin(root: string, cert: string, key: string): Promise<typeof origin> {
  const server = https.createServer(
    { cert: readFileSync(file(cert)), key: readFileSync(file(key)) },
    (request, response) => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'https://origin').pathname);
      const target = path.resolve(root, `.${pathname}`);
      const found = target.startsWith(root + path.sep) && statSync(target, { throwIfNoEntry: false })?.isFile();
      if (!found) return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      response.writeHead(200, {
        'Access-Control-Allow-Origin': '*',
        'Content-Type': CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream',
      });
      createReadStream(target).pipe(response);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://localhost:${(server.address() as AddressInfo).port}`, root };
}

/** `npm run build` of the project: the kit's production build into its dist/. */
async function build(): Promise<void> {
  const stats = await buildRemoteProject(project, { name: REMOTE, components: ['Hello'], formComponents: [] });
  if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
}

/** The guide's deploy step: dist/ copied to the version's own folder on the origin, without the maps. */
function deploy(version: string): string {
  const folder = path.join(origin.root, REMOTE, version);
  mkdirSync(folder, { recursive: true });
  cpSync(path.join(project, 'dist'), folder, { recursive: true, filter: (source) => !source.endsWith('.map') });
  return `${origin.url}/${REMOTE}/${version}/mf-manifest.json`;
}

beforeAll(async () => {
  dir = makeTempDir('slots-kit-https-');
  makeAuthority(dir.path, 'company-ca', COMPANY_CA);
  makeAuthority(dir.path, 'team-ca', TEAM_CA);
  makeServerCertificate(dir.path, 'product', THIS_MACHINE, daysFromNow(-1), daysFromNow(2), 'company-ca');
  makeServerCertificate(dir.path, 'origin', THIS_MACHINE, daysFromNow(-1), daysFromNow(2), 'team-ca');
  // What the guide has a team do when both need one: one file, one certificate after the other.
  writeFileSync(
    file('release-cas.pem'),
    readFileSync(file('company-ca.pem'), 'utf8') + readFileSync(file('team-ca.pem'), 'utf8'),
  );

  project = file('billing-remote');
  mkdirSync(path.join(project, 'components'), { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'billing-remote', version: '1.1.0' }));
  // What the release command reads of remote.ts: its name and components (a declaration without imports will do).
  writeFileSync(path.join(project, 'remote.ts'), `export default { name: '${REMOTE}', components: ['Hello'] };\n`);
  writeFileSync(
    path.join(project, 'components', 'Hello.tsx'),
    'export function Hello({ name }: { name: string }) {\n  return <p>Hello, {name}</p>;\n}\n',
  );
  await build();

  const originRoot = file('billing-origin');
  mkdirSync(originRoot);
  origin = await startHttpsOrigin(originRoot, 'origin.pem', 'origin.key');
  const firstEntry = deploy('1.0.0');

  product = await startAppServer({
    tls: { certFile: file('product.pem'), keyFile: file('product.key') },
    // The product's operators trust the team's authority: the server reads the team's files over HTTPS.
    env: { NODE_EXTRA_CA_CERTS: file('team-ca.pem') },
    prepare: async (serverDir) => {
      const config = path.join(serverDir, 'remotes.json');
      writeFileSync(config, JSON.stringify({ remotes: [{ name: REMOTE, entry: firstEntry }] }));
      return { REMOTES_CONFIG: config };
    },
  });
  const added = await runServerCommand('team-token.ts', ['add', REMOTE], {
    DATABASE_PATH: product.databasePath,
    DATABASE_URL: undefined,
    REMOTES_CONFIG: path.join(product.tempDir.path, 'remotes.json'),
  });
  expect(added).toMatchObject({ code: 0 });
  token = added.stdout.trimEnd().split('\n').at(-1) ?? '';
});

afterAll(async () => {
  await product?.stop();
  if (origin) await new Promise((resolve) => origin.server.close(resolve));
  dir?.remove();
});

/** `npm run release -- --version <version> --entry <entry>` in the project, NODE_EXTRA_CA_CERTS from `extraCaCerts`. */
function release(version: string, entry: string, extraCaCerts?: string): Promise<CommandRun> {
  return runSlotsRemote(['release', '--version', version, '--entry', entry], project, {
    [RELEASE_TOKEN_ENV]: token,
    SLOTS_RELEASE_SERVER: product.url,
    ...(extraCaCerts === undefined ? {} : { NODE_EXTRA_CA_CERTS: file(extraCaCerts) }),
  });
}

describe('a team releasing to a product served over HTTPS, from an origin served over HTTPS', () => {
  it('is told what to trust for each, and publishes once one NODE_EXTRA_CA_CERTS file holds both authorities', async () => {
    const entry = deploy('1.1.0');
    expect(product.url).toMatch(/^https:\/\//);

    // Nothing given: the team's origin is the first asked (the build deployed there), and refused.
    const nothingTrusted = await release('1.1.0', entry);
    expect(nothingTrusted.code).toBe(1);
    expect(nothingTrusted.stderr.split('\n')[0]).toBe(
      `The certificate of your origin ${origin.url} is not trusted here (unable to verify the first certificate): ` +
        `it was issued by "${TEAM_CA}", an authority Node.js does not know, most often a company's own. The build ` +
        `deployed there could not be compared with remote.ts: nothing was sent to ${product.url}.`,
    );

    // The product's authority alone: the origin's is still missing from the file, and the message says so.
    const productOnly = await release('1.1.0', entry, 'company-ca.pem');
    expect(productOnly.code).toBe(1);
    expect(productOnly.stderr.split('\n')[1]).toMatch(
      new RegExp(
        `^NODE_EXTRA_CA_CERTS is set \\(${file('company-ca.pem').replace(/[.]/g, '\\.')}\\) but holds no ` +
          `certificate of "${TEAM_CA}": add the certificate of the authority that issued your origin's to that file`,
      ),
    );

    // The origin's authority alone: the build is compared, then the product's certificate is refused.
    const originOnly = await release('1.1.0', entry, 'team-ca.pem');
    expect(originOnly.code).toBe(1);
    expect(originOnly.stderr.split('\n')[0]).toBe(
      `The certificate of ${product.url} is not trusted here (unable to verify the first certificate): it was ` +
        `issued by "${COMPANY_CA}", an authority Node.js does not know, most often a company's own. Nothing was ` +
        'sent, the token included.',
    );
    // Said to add the product's authority to the file, not to give another file in its place (which would drop
    // the origin's, refused again at the next run).
    expect(originOnly.stderr.split('\n')[1]).toMatch(
      new RegExp(
        `^NODE_EXTRA_CA_CERTS is set \\(${file('team-ca.pem').replace(/[.]/g, '\\.')}\\) but holds no certificate ` +
          `of "${COMPANY_CA}": add the certificate of the authority that issued the product's to that file, not the ` +
          "product's own .*A file may hold several certificates, one after the other: your origin's authority too",
      ),
    );

    // Both, in one file: published, the product having read the build on the team's origin over HTTPS itself.
    const published = await release('1.1.0', entry, 'release-cas.pem');
    expect({ code: published.code, stderr: published.stderr }).toEqual({ code: 0, stderr: '' });
    expect(published.stdout.split('\n')[0]).toMatch(
      new RegExp(
        `^Published ${REMOTE} 1\\.1\\.0 \\(entry ${entry.replace(/[.]/g, '\\.')}(, built with remote kit .*)?\\)\\.$`,
      ),
    );
    expect(published.stdout).toContain(`on the product's releases page (${product.url}/releases)`);

    // Run again (a CI job retried after its answer was lost): the product has it from this entry.
    const again = await release('1.1.0', entry, 'release-cas.pem');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(new RegExp(`^${REMOTE} 1\\.1\\.0 was published already from this entry`));
  });
});

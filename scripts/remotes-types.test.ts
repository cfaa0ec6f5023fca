import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { getFreePort } from '../testing/system/free-port';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { slotComponentTypes } from '../build/slot-component-types';
import { COMPONENT_NAME_PATTERN, REMOTE_NAME_PATTERN } from '../shared';
import { DESCRIPTOR_MAX_BYTES } from '../server/remotes/http-descriptor-source';
import { collectDescriptors, configuredDescriptorUrls, typedRemotesIn } from './remotes-types';

/** What a kit build of another team's remote writes beside its manifest. */
const BILLING_DESCRIPTOR = {
  name: 'team_billing',
  components: ['InvoiceBanner'],
  formComponents: [],
  props: {
    InvoiceBanner: {
      type: 'object',
      properties: { amountDue: { type: 'number' }, currency: { type: 'string' } },
      required: ['amountDue', 'currency'],
      additionalProperties: false,
    },
  },
};

let folder: TempDir;
let origin: http.Server;
let originUrl: string;
/** Another server, standing for an internal address: a redirect points at it, and it must never be asked. */
let elsewhere: http.Server;
let elsewhereUrl: string;
const elsewhereAsked: string[] = [];
/** A descriptor over the size cap: its name is a secret that must not come back in a message. */
const HUGE = JSON.stringify({ name: `secret-${'x'.repeat(DESCRIPTOR_MAX_BYTES)}`, components: [] });

beforeAll(async () => {
  folder = makeTempDir('remotes-types-');
  origin = http.createServer((req, res) => {
    if (req.url === '/billing/slots-remote.json') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(BILLING_DESCRIPTOR));
      return;
    }
    if (req.url === '/moved/slots-remote.json') {
      res.writeHead(302, { Location: `${elsewhereUrl}/billing/slots-remote.json` }).end();
      return;
    }
    if (req.url === '/streamed/slots-remote.json') {
      // No Content-Length: the cap is met while reading.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (let at = 0; at < HUGE.length; at += 64 * 1024) res.write(HUGE.slice(at, at + 64 * 1024));
      res.end();
      return;
    }
    if (req.url === '/announced/slots-remote.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(HUGE);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  elsewhere = http.createServer((req, res) => {
    elsewhereAsked.push(req.url ?? '');
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ ...BILLING_DESCRIPTOR, name: 'team_internal' }));
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => origin.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
  folder.remove();
});

function writeConfig(remotes: unknown[]): string {
  const file = path.join(folder.path, 'remotes.json');
  fs.writeFileSync(file, JSON.stringify({ remotes }));
  return file;
}

describe('npm run remotes:types -- --from-config', () => {
  it('types the kit-built remotes REMOTES_CONFIG adds, and skips one that does not answer with a warning', async () => {
    const config = writeConfig([
      { name: 'team_billing', entry: `${originUrl}/billing/mf-manifest.json` },
      { name: 'team_gone', entry: `${originUrl}/gone/mf-manifest.json` },
      // A plain remoteEntry.js remote lists its components and has no schemas: nothing to type.
      { name: 'legacy_widgets', entry: `${originUrl}/legacy/remoteEntry.js`, components: ['Clock'] },
    ]);
    const urls = configuredDescriptorUrls({ REMOTES_CONFIG: config });
    expect(urls).toEqual([`${originUrl}/billing/slots-remote.json`, `${originUrl}/gone/slots-remote.json`]);

    const warnings: string[] = [];
    // What the generated file declares, before formatting (prettier cannot be loaded inside Jest).
    const remotes = await collectDescriptors({ optional: urls, warn: (message) => warnings.push(message) });
    const source = slotComponentTypes(remotes, '../../../shared/slot').replace(/\s+/g, ' ');
    expect(source).toContain('/** Remote `team_billing`. */');
    expect(source).toMatch(/InvoiceBanner: \{ amountDue: number; currency: string;? \}/);
    // The repository's own remotes stay typed beside it.
    expect(source).toContain('/** Remote `team_marketing`. */');
    expect(warnings).toEqual([
      `Not typed: ${originUrl}/gone/slots-remote.json (${originUrl}/gone/slots-remote.json answered 404).`,
    ]);
  });

  it('fails on a descriptor named on the command line that cannot be read', async () => {
    await expect(collectDescriptors({ required: [`${originUrl}/gone/slots-remote.json`] })).rejects.toThrow(
      'answered 404',
    );
  });

  it('says why a descriptor could not be fetched, with its address (not only "fetch failed")', async () => {
    // A port nothing listens on: from the block no other test's listen(0) is ever given.
    const url = `http://127.0.0.1:${await getFreePort()}/slots-remote.json`;
    await expect(collectDescriptors({ required: [url] })).rejects.toThrow(
      new RegExp(`^${url.replace(/[.]/g, '\\.')} could not be read \\(.*ECONNREFUSED.*\\)$`),
    );
  });

  it('knows the remotes a generated file types, to say which a run no longer types', () => {
    const source = slotComponentTypes([BILLING_DESCRIPTOR], '../../../shared/slot');
    expect([...typedRemotesIn(source)]).toEqual(['team_billing']);
  });

  it('refuses a descriptor whose name or components could write code into the generated file', async () => {
    const injectedName =
      "team */ } } export const injected = (globalThis as any).process?.exit?.(7); declare module '../../../shared/slot' { interface KnownSlotComponents { /* x";
    const badName = path.join(folder.path, 'bad-name.json');
    fs.writeFileSync(badName, JSON.stringify({ ...BILLING_DESCRIPTOR, name: injectedName }));
    await expect(collectDescriptors({ required: [badName] })).rejects.toThrow(
      `${badName}: "name" must match ${REMOTE_NAME_PATTERN}, got ${JSON.stringify(injectedName)}.`,
    );

    const badComponent = path.join(folder.path, 'bad-component.json');
    fs.writeFileSync(badComponent, JSON.stringify({ name: 'team_billing', components: ['Evil Component!'] }));
    await expect(collectDescriptors({ required: [badComponent] })).rejects.toThrow(
      `${badComponent}: "components" holds "Evil Component!", which is not a component name (${COMPONENT_NAME_PATTERN}).`,
    );

    // From REMOTES_CONFIG, as a descriptor that does not answer: left untyped, with the reason.
    const warnings: string[] = [];
    const remotes = await collectDescriptors({ optional: [badName], warn: (message) => warnings.push(message) });
    expect(remotes.map((remote) => remote.name)).not.toContain(injectedName);
    expect(warnings).toEqual([expect.stringContaining(`Not typed: ${badName} (${badName}: "name" must match`)]);
  });

  it('reads a descriptor at the address given: a redirect is refused, never followed', async () => {
    const moved = `${originUrl}/moved/slots-remote.json`;
    const refusal =
      `${moved} answered 302, a redirect to ${elsewhereUrl}: files are read at the address given, redirects are ` +
      'not followed';
    await expect(collectDescriptors({ required: [moved] })).rejects.toThrow(refusal);
    const warnings: string[] = [];
    const remotes = await collectDescriptors({ optional: [moved], warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([`Not typed: ${moved} (${refusal}).`]);
    expect(remotes.map((remote) => remote.name)).not.toContain('team_internal');
    expect(elsewhereAsked).toEqual([]);
  });

  it('reads at most DESCRIPTOR_MAX_BYTES of a descriptor, sent in chunks or announced, and quotes none of it', async () => {
    for (const file of ['streamed', 'announced']) {
      const url = `${originUrl}/${file}/slots-remote.json`;
      const failure = collectDescriptors({ required: [url] });
      await expect(failure).rejects.toThrow(`${url} is larger than ${DESCRIPTOR_MAX_BYTES} bytes`);
      await expect(failure).rejects.not.toThrow(/secret/);
    }
  });

  it('needs REMOTES_CONFIG', () => {
    expect(() => configuredDescriptorUrls({})).toThrow('--from-config needs REMOTES_CONFIG');
  });
});

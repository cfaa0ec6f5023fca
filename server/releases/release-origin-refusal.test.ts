/**
 * Which entries a team may publish a remote's releases from, with the lists made by the real REMOTES_CONFIG parser
 * (a file in a temporary folder), as the server makes them.
 */
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { loadRemotesConfig } from '../remotes/remotes-config';
import { releaseOriginRefusal } from './release-origin-refusal';

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

/** The configuration a server makes of a REMOTES_CONFIG holding `remotes`. */
function configOf(remotes: unknown[]) {
  const file = dist.write('remotes.json', JSON.stringify({ remotes }));
  return loadRemotesConfig({ env: { REMOTES_CONFIG: file }, distDir: dist.dir, production: true });
}

const refused = (entry: string, allowed: string) =>
  `"entry" ${JSON.stringify(new URL(entry).href)} is on ${new URL(entry).origin}, an origin the operators have not ` +
  `allowed for the releases of remote "team_billing": they are published from ${allowed} only (the origin of its ` +
  'REMOTES_CONFIG entry and its "releaseOrigins"), and nothing was asked there. Ask the operators to add the origin ' +
  `to the remote's "releaseOrigins" in REMOTES_CONFIG.`;

describe('origins written as the URL parser writes them', () => {
  let config: ReturnType<typeof configOf>;
  beforeEach(() => {
    config = configOf([
      {
        name: 'team_billing',
        entry: 'https://billing.example.com/1.0/mf-manifest.json',
        releaseOrigins: ['https://cdn.example.com'],
      },
      { name: 'team_other', entry: 'https://other.example.com/mf-manifest.json', components: ['Other'] },
    ]);
  });

  it('takes an entry on one of the remote’s release origins, and any entry of a remote the file gives none', () => {
    expect(
      releaseOriginRefusal(config, 'team_billing', new URL('https://cdn.example.com/b/1.0/mf-manifest.json')),
    ).toBe(null);
    expect(releaseOriginRefusal(config, 'team_billing', new URL('https://billing.example.com/2.0/x.json'))).toBe(null);
    expect(releaseOriginRefusal(config, 'team_billing', new URL('https://cdn.example.com:443/x.json'))).toBe(null);
    expect(releaseOriginRefusal(config, 'team_other', new URL('https://anywhere.example.com/x.json'))).toBe(null);
    expect(releaseOriginRefusal({}, 'team_billing', new URL('https://anywhere.example.com/x.json'))).toBe(null);
  });

  it('refuses another origin, whatever names the same host, naming the allowed ones', () => {
    for (const entry of [
      'https://evil.example.com/mf-manifest.json',
      'http://cdn.example.com/mf-manifest.json',
      'https://cdn.example.com:8443/mf-manifest.json',
      'https://cdn.example.com.evil.example/mf-manifest.json',
      'https://cdn.example.com@10.0.0.5/mf-manifest.json',
    ]) {
      expect(releaseOriginRefusal(config, 'team_billing', new URL(entry))).toBe(
        refused(entry, 'https://billing.example.com, https://cdn.example.com'),
      );
    }
  });
});

describe('origins written with capitals, an international name or a default port', () => {
  let config: ReturnType<typeof configOf>;
  beforeEach(() => {
    config = configOf([
      {
        name: 'team_billing',
        entry: 'https://Billing.Example.com/1.0/mf-manifest.json',
        releaseOrigins: ['https://Bücher.Example', 'HTTPS://CDN.Example.com:443/'],
      },
    ]);
  });

  it('takes releases from those origins, however their entry spells them', () => {
    for (const entry of [
      'https://bücher.example/1.0/mf-manifest.json',
      'https://BÜCHER.example/1.0/mf-manifest.json',
      'https://xn--bcher-kva.example/1.0/mf-manifest.json',
      'https://cdn.example.com/1.0/mf-manifest.json',
      'https://CDN.EXAMPLE.COM:443/1.0/mf-manifest.json',
      'https://billing.example.com/2.0/mf-manifest.json',
    ]) {
      expect([entry, releaseOriginRefusal(config, 'team_billing', new URL(entry))]).toEqual([entry, null]);
    }
  });

  it('names the allowed origins as the operators wrote them, each with the form compared', () => {
    expect(releaseOriginRefusal(config, 'team_billing', new URL('https://evil.example/mf-manifest.json'))).toBe(
      refused(
        'https://evil.example/mf-manifest.json',
        'https://Billing.Example.com (https://billing.example.com), https://Bücher.Example ' +
          '(https://xn--bcher-kva.example), HTTPS://CDN.Example.com:443 (https://cdn.example.com)',
      ),
    );
  });

  it('names a refused entry’s international origin as written too, beside its punycode', () => {
    const message = releaseOriginRefusal(config, 'team_billing', new URL('https://bücher.example.org:8443/m.json'));
    expect(message).toContain(
      '"entry" "https://xn--bcher-kva.example.org:8443/m.json" is on https://xn--bcher-kva.example.org:8443 ' +
        '(https://bücher.example.org:8443), an origin the operators have not allowed',
    );
  });
});

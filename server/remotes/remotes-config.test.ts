import path from 'node:path';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { loadRemotesConfig } from './remotes-config';
import { RemotesConfigError } from '../config/remotes-config-error';

const MARKETING = { name: 'team_marketing', components: ['Callout', 'LoginNotice'], formComponents: [] };
const RECORDS = {
  name: 'team_records',
  components: ['CopyLinkAction', 'SlugPreview'],
  formComponents: ['SlugPreview'],
};

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

/** A release origin written as the URL parser writes it. */
const same = (origin: string) => ({ origin, written: origin });

function load(config?: unknown, nodeEnv?: string) {
  const env: NodeJS.ProcessEnv = nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv };
  if (config !== undefined) {
    env.REMOTES_CONFIG = dist.write(
      'remotes.config.json',
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  }
  return loadRemotesConfig({ env, distDir: dist.dir });
}

describe('loadRemotesConfig: built-in remotes', () => {
  it('lists every remote built into <distDir>/remotes from its own descriptor, served by this server', () => {
    dist.addRemote(RECORDS);
    dist.addRemote(MARKETING);
    const config = load();
    expect(config.remotes).toEqual([
      { ...MARKETING, entry: '/remotes/team_marketing/mf-manifest.json' },
      { ...RECORDS, entry: '/remotes/team_records/mf-manifest.json' },
    ]);
    expect(config.sources).toEqual({ builtIn: ['team_marketing', 'team_records'], configFile: null });
    expect(config.allowedOrigins).toEqual([]);
  });

  it('is empty before anything is built', () => {
    expect(load().remotes).toEqual([]);
  });

  it('ignores folders that are not remotes of this repository', () => {
    dist.write('remotes/other/readme.txt', 'not a remote');
    dist.addRemote(MARKETING);
    expect(load().remotes.map((remote) => remote.name)).toEqual(['team_marketing']);
  });

  it('fails when a declared component is not exposed by the build (stale or hand-edited descriptor)', () => {
    dist.addRemote(RECORDS, { exposed: ['CopyLinkAction'] });
    expect(() => load()).toThrow(RemotesConfigError);
    expect(() => load()).toThrow(/team_records.*does not expose: SlugPreview/);
  });

  it('fails when the manifest is missing or the descriptor names another remote', () => {
    dist.addRemote(MARKETING, { manifest: false });
    expect(() => load()).toThrow(/has slots-remote.json but no mf-manifest.json/);
    dist.remove();
    dist = createFixtureDist();
    dist.write('remotes/team_a/slots-remote.json', JSON.stringify({ ...MARKETING, name: 'team_b' }));
    expect(() => load()).toThrow(/names remote "team_b" but sits in folder "team_a"/);
  });

  it('fails on a descriptor that is not valid JSON, naming the file', () => {
    dist.write('remotes/team_a/slots-remote.json', '{ nope');
    expect(() => load()).toThrow(/slots-remote.json is not valid JSON/);
  });
});

describe('loadRemotesConfig: REMOTES_CONFIG', () => {
  beforeEach(() => {
    dist.addRemote(MARKETING);
    dist.addRemote(RECORDS);
  });

  it('points a built remote at another origin, keeping the components of its build', () => {
    const config = load({
      remotes: [{ name: 'team_records', entry: 'http://127.0.0.1:4100/remotes/team_records/mf-manifest.json' }],
    });
    expect(config.remotes.find((remote) => remote.name === 'team_records')).toEqual({
      ...RECORDS,
      entry: 'http://127.0.0.1:4100/remotes/team_records/mf-manifest.json',
    });
    expect(config.sources.configFile).toBe(path.join(dist.dir, 'remotes.config.json'));
  });

  it('adds a remote built elsewhere, disables one, and sets the allowed origins', () => {
    const config = load({
      remotes: [
        { name: 'team_billing', entry: 'https://billing.example.com/mf-manifest.json', components: ['InvoiceBadge'] },
        { name: 'team_marketing', enabled: false },
      ],
      allowedOrigins: ['https://admin.example.com', 'http://127.0.0.1:5000/'],
    });
    expect(config.remotes.map((remote) => remote.name)).toEqual(['team_records', 'team_billing']);
    expect(config.remotes[1]).toEqual({
      name: 'team_billing',
      entry: 'https://billing.example.com/mf-manifest.json',
      components: ['InvoiceBadge'],
      formComponents: [],
    });
    expect(config.allowedOrigins).toEqual(['https://admin.example.com', 'http://127.0.0.1:5000']);
    expect(load({ allowedOrigins: '*' }).allowedOrigins).toBe('*');
    // Compared with a browser's Origin header, which is lowercase, punycode and without a default port.
    expect(
      load({ allowedOrigins: ['https://Admin.Example.com:443', 'https://bücher.example/'] }).allowedOrigins,
    ).toEqual(['https://admin.example.com', 'https://xn--bcher-kva.example']);
  });

  it.each([
    ['an unreadable file', undefined, /cannot be read/],
    ['invalid JSON', '{ "remotes": [', /is not valid JSON/],
    ['a list at the top', '[]', /must hold an object/],
    ['an unknown top-level key', { remote: [] }, /unknown key\(s\) remote/],
    ['an unknown remote key', { remotes: [{ name: 'team_records', url: 'x' }] }, /unknown key\(s\) url/],
    ['a bad name', { remotes: [{ name: 'team/x', entry: '/x.json', components: ['A'] }] }, /"name" must match/],
    [
      'a javascript: entry',
      { remotes: [{ name: 'team_records', entry: 'javascript:alert(1)' }] },
      /must use http or https/,
    ],
    [
      'a relative entry',
      { remotes: [{ name: 'team_records', entry: 'remotes/x.json' }] },
      /neither an absolute URL nor a path/,
    ],
    [
      'a new remote without entry',
      { remotes: [{ name: 'team_new', components: ['Clock'] }] },
      /team_new.*needs "entry"/,
    ],
    [
      'a plain remoteEntry.js remote without components',
      { remotes: [{ name: 'team_new', entry: 'https://x.example/remoteEntry.js' }] },
      /"team_new".*not the absolute URL of an mf-manifest.json, so .*list its "components"/,
    ],
    [
      'a folder’s URL, the mf-manifest.json left out',
      { remotes: [{ name: 'team_new', entry: 'http://127.0.0.1:4001/' }] },
      /"http:\/\/127\.0\.0\.1:4001\/" is not the absolute URL of an mf-manifest\.json \(for a remote built with the kit: "http:\/\/127\.0\.0\.1:4001\/mf-manifest\.json"\)/,
    ],
    [
      'form components outside components',
      { remotes: [{ name: 'team_records', formComponents: ['Nope'] }] },
      /subset of "components"/,
    ],
    ['a remote listed twice', { remotes: [{ name: 'team_records' }, { name: 'team_records' }] }, /listed twice/],
    [
      'content other than text',
      {
        remotes: [
          {
            name: 'team_records',
            slots: { 'header-banner': [{ component: 'Callout', content: { component: 'Callout' } }] },
          },
        ],
      },
      /slots\["header-banner"\]\[0\]: "content" must be text \(a string\), got an object/,
    ],
    [
      'a component owned twice',
      { remotes: [{ name: 'team_copy', entry: '/c.json', components: ['Callout'] }] },
      /"Callout" is provided by both "team_marketing" and "team_copy"/,
    ],
    ['an origin with a path', { allowedOrigins: ['https://admin.example.com/app'] }, /is not an origin/],
  ])('fails fast on %s, saying what and where', (_case, content, message) => {
    if (content === undefined) {
      expect(() =>
        loadRemotesConfig({ env: { REMOTES_CONFIG: path.join(dist.dir, 'missing.json') }, distDir: dist.dir }),
      ).toThrow(message);
      return;
    }
    expect(() => load(content)).toThrow(RemotesConfigError);
    expect(() => load(content)).toThrow(message);
  });
});

describe('loadRemotesConfig: entries a browser may be given (the CSP and GET /api/remotes carry them)', () => {
  const entry = (value: string) => ({ remotes: [{ name: 'team_billing', entry: value, components: ['Invoice'] }] });

  it.each([
    ['https://*/mf-manifest.json', '*'],
    ['https://*.example.com/mf-manifest.json', '*.example.com'],
    ['http://*.example.com:8080/mf-manifest.json', '*.example.com'],
    ['https://%2A.example.com/mf-manifest.json', '*.example.com'],
  ])('refuses the wildcard host of %s, naming the remote and the entry, in every mode', (value, host) => {
    for (const nodeEnv of ['production', 'development']) {
      expect(() => load(entry(value), nodeEnv)).toThrow(RemotesConfigError);
      expect(() => load(entry(value), nodeEnv)).toThrow(
        new RegExp(
          `remotes\\[0\\] \\("team_billing"\\): "entry" ".*" has a wildcard host \\("\\${host}"\\).*script-src`,
        ),
      );
    }
  });

  it('refuses credentials in an entry, without writing the password into the message', () => {
    for (const value of [
      'https://deploy:s3cret@cdn.example.com/billing/mf-manifest.json',
      'https://token@cdn.example.com/x.json',
    ]) {
      let message = '';
      try {
        load(entry(value));
      } catch (error) {
        expect(error).toBeInstanceOf(RemotesConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(
        /remotes\[0\] \("team_billing"\): "entry" "https:\/\/\*\*\*@cdn\.example\.com\/.*" carries credentials/,
      );
      expect(message).not.toMatch(/s3cret|token|deploy/);
    }
  });

  it('refuses plain http on a host other than loopback in production, and keeps it in development', () => {
    const remote = 'http://billing.example.com/mf-manifest.json';
    expect(() => load(entry(remote), 'production')).toThrow(
      /remotes\[0\] \("team_billing"\): "entry" "http:\/\/billing\.example\.com\/mf-manifest\.json" uses plain http on "billing\.example\.com".*NODE_ENV=production/,
    );
    expect(load(entry(remote), 'development').remotes.map((r) => r.entry)).toContain(remote);
    expect(load(entry(remote)).remotes.map((r) => r.entry)).toContain(remote);
    for (const loopback of [
      'http://127.0.0.1:4100/mf-manifest.json',
      'http://localhost:4100/mf-manifest.json',
      'http://remote.localhost/mf-manifest.json',
      'http://[::1]:4100/mf-manifest.json',
    ]) {
      expect(load(entry(loopback), 'production').remotes.map((r) => r.entry)).toContain(loopback);
    }
    expect(load(entry('https://billing.example.com/mf-manifest.json'), 'production').remotes).toHaveLength(1);
  });

  it('refuses a wildcard pattern among allowedOrigins, and keeps "*" alone (public files, never with credentials)', () => {
    expect(() => load({ allowedOrigins: ['https://*.example.com'] })).toThrow(
      /"allowedOrigins" holds "https:\/\/\*\.example\.com", a wildcard pattern/,
    );
    expect(load({ allowedOrigins: '*' }).allowedOrigins).toBe('*');
    expect(load({ allowedOrigins: ['*'] }).allowedOrigins).toBe('*');
  });
});

describe('loadRemotesConfig: "releaseOrigins", the origins a remote’s team may publish releases from', () => {
  const billing = (releaseOrigins: unknown, entry = 'https://billing.example.com/1.0.0/mf-manifest.json') => ({
    remotes: [{ name: 'team_billing', entry, releaseOrigins }],
  });

  it('keeps the listed origins, each once (a trailing slash dropped), after the origin of the remote’s own entry', () => {
    const config = load(
      billing(['https://cdn.example.com', 'https://cdn.example.com/', 'https://billing.example.com']),
      'production',
    );
    expect(config.releaseOrigins).toEqual(
      new Map([['team_billing', [same('https://billing.example.com'), same('https://cdn.example.com')]]]),
    );
  });

  it('keeps an empty list (the entry’s origin alone), a remote on this server, and a disabled one', () => {
    dist.addRemote(MARKETING);
    const config = load({
      remotes: [
        { name: 'team_billing', entry: 'https://billing.example.com/mf-manifest.json', releaseOrigins: [] },
        { name: 'team_marketing', releaseOrigins: ['https://marketing-cdn.example.com'] },
        { name: 'team_old', enabled: false, releaseOrigins: ['https://old.example.com'] },
        { name: 'team_free', entry: 'https://free.example.com/mf-manifest.json' },
      ],
    });
    expect(config.releaseOrigins).toEqual(
      new Map([
        ['team_billing', [same('https://billing.example.com')]],
        ['team_marketing', [same('https://marketing-cdn.example.com')]],
        ['team_old', [same('https://old.example.com')]],
      ]),
    );
  });

  it.each([
    ['a built-in remote', { name: 'team_marketing', releaseOrigins: [] }, 'it gives none'],
    ['a disabled one', { name: 'team_marketing', enabled: false, releaseOrigins: [] }, 'it gives none'],
    [
      'a remote whose entry is on this server',
      { name: 'team_marketing', entry: '/cdn/team_marketing/mf-manifest.json', releaseOrigins: [] },
      '"/cdn/team_marketing/mf-manifest.json" is a path on this server',
    ],
  ])('refuses an empty list that would allow no origin at all: %s, naming it', (_case, remote, why) => {
    dist.addRemote(MARKETING);
    expect(() => load({ remotes: [remote] })).toThrow(
      new RemotesConfigError(
        `REMOTES_CONFIG ${path.join(dist.dir, 'remotes.config.json')}, remotes[0] ("team_marketing"): ` +
          `"releaseOrigins" is empty and the remote has no "entry" on another server whose origin it would allow ` +
          `(${why}), so no release of it could be published or put in force. List at least one origin its team ` +
          'publishes from, or remove "releaseOrigins" to allow any origin the entry rules allow (to stop the ' +
          "team's releases, revoke its token: npm run token:revoke).",
      ),
    );
  });

  it('takes origins written with capitals, an international name or a default port, keeping how they were written', () => {
    const config = load(
      billing(
        ['https://Bücher.Example', 'HTTPS://CDN.Example.com:443/', 'https://xn--bcher-kva.example'],
        'https://Billing.Example.com/1.0.0/mf-manifest.json',
      ),
      'production',
    );
    expect(config.releaseOrigins?.get('team_billing')).toEqual([
      { origin: 'https://billing.example.com', written: 'https://Billing.Example.com' },
      { origin: 'https://xn--bcher-kva.example', written: 'https://Bücher.Example' },
      { origin: 'https://cdn.example.com', written: 'HTTPS://CDN.Example.com:443' },
    ]);
  });

  it.each([
    [
      'no list',
      'https://cdn.example.com',
      /"releaseOrigins" must be a list of origins like "https:\/\/cdn\.example\.com"/,
    ],
    ['a non-string', [42], /"releaseOrigins" must be a list of origins/],
    [
      'a path',
      ['https://cdn.example.com/billing'],
      /holds "https:\/\/cdn\.example\.com\/billing", which is not an origin/,
    ],
    ['no URL', ['cdn.example.com'], /holds "cdn\.example\.com", which is not an origin/],
    ['a wildcard', ['https://*.example.com'], /holds "https:\/\/\*\.example\.com", a wildcard pattern/],
    ['another scheme', ['ftp://cdn.example.com'], /holds "ftp:\/\/cdn\.example\.com", which is not an origin/],
    ['a query', ['https://cdn.example.com?'], /holds "https:\/\/cdn\.example\.com\?", which is not an origin/],
    ['a fragment', ['https://cdn.example.com/#'], /holds "https:\/\/cdn\.example\.com\/#", which is not an origin/],
    ['a backslash path', ['https://cdn.example.com\\x'], /which is not an origin/],
  ])('refuses %s, naming the file and the remote', (_case, releaseOrigins, message) => {
    expect(() => load(billing(releaseOrigins))).toThrow(RemotesConfigError);
    expect(() => load(billing(releaseOrigins))).toThrow(/remotes\[0\] \("team_billing"\)/);
    expect(() => load(billing(releaseOrigins))).toThrow(message);
  });

  it('refuses credentials without writing them into the message', () => {
    let message = '';
    try {
      load(billing(['https://deploy:s3cret@cdn.example.com']));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/"releaseOrigins" holds an origin with credentials/);
    expect(message).not.toMatch(/s3cret|deploy/);
  });

  it('refuses plain http off loopback in production, as for an entry, and keeps loopback and development', () => {
    expect(() => load(billing(['http://cdn.example.com']), 'production')).toThrow(
      /"releaseOrigins" holds "http:\/\/cdn\.example\.com", plain http on a host other than this machine/,
    );
    expect(() => load(billing(['HTTP://CDN.Example.com']), 'production')).toThrow(
      /"releaseOrigins" holds "HTTP:\/\/CDN\.Example\.com" \(http:\/\/cdn\.example\.com\), plain http on a host/,
    );
    expect(load(billing(['http://cdn.example.com']), 'development').releaseOrigins?.get('team_billing')).toEqual([
      same('https://billing.example.com'),
      same('http://cdn.example.com'),
    ]);
    expect(load(billing(['http://127.0.0.1:4100']), 'production').releaseOrigins?.get('team_billing')).toContainEqual(
      same('http://127.0.0.1:4100'),
    );
  });
});

describe('loadRemotesConfig: "teamRollouts", the remotes whose team token may steer their progressive rollouts', () => {
  it('lists the remotes that say true, and no other', () => {
    const config = load({
      remotes: [
        { name: 'team_billing', entry: 'https://billing.example.com/mf-manifest.json', teamRollouts: true },
        { name: 'team_marketing', entry: 'https://marketing.example.com/mf-manifest.json', teamRollouts: false },
        { name: 'team_other', entry: 'https://other.example.com/mf-manifest.json' },
      ],
    });
    expect([...(config.teamRollouts ?? [])]).toEqual(['team_billing']);
  });

  it('refuses anything but true or false, naming the file and the remote', () => {
    const config = { remotes: [{ name: 'team_marketing', teamRollouts: 'yes' }] };
    expect(() => load(config)).toThrow(RemotesConfigError);
    expect(() => load(config)).toThrow(/remotes\[0\] \("team_marketing"\): "teamRollouts" must be true or false\./);
  });
});

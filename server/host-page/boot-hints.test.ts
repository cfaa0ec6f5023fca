import type { RemoteDescriptor } from '../../shared';
import { bootHints, renderBootHints, replaceHintsMarker } from './boot-hints';
import type { BuiltRemoteFiles } from './built-remote-files';

const MARKETING: RemoteDescriptor = {
  name: 'team_marketing',
  entry: '/remotes/team_marketing/mf-manifest.json',
  components: ['LoginNotice', 'Callout', 'LoginSidebarPromo', 'Shared'],
  formComponents: [],
};
const PARTNER: RemoteDescriptor = {
  name: 'team_partner',
  entry: 'https://cdn.example.com/partner/mf-manifest.json',
  components: ['PartnerBadge', 'Callout'],
  formComponents: [],
};
const MEDIA = '(min-width: 1024px)';

const FILES: BuiltRemoteFiles = {
  manifest: '/remotes/team_marketing/mf-manifest.json',
  entry: '/remotes/team_marketing/remoteEntry.js',
  // Registered by its manifest: the hints name it (see the test of a remote registered by its entry).
  loadableByEntry: false,
  exposes: new Map([
    ['LoginNotice', { js: ['/remotes/team_marketing/LoginNotice.js', '/remotes/team_marketing/common.js'], css: [] }],
    ['Callout', { js: ['/remotes/team_marketing/Callout.js'], css: ['/remotes/team_marketing/Callout.css'] }],
    ['LoginSidebarPromo', { js: ['/remotes/team_marketing/Promo.js', '/remotes/team_marketing/common.js'], css: [] }],
  ]),
};

function builtFiles(remote: RemoteDescriptor): BuiltRemoteFiles | null {
  return remote.name === MARKETING.name ? FILES : null;
}

describe('bootHints', () => {
  it("preloads a built remote's manifest, entry and the page's components' files, each file once", () => {
    const components = new Map<string, string | null>([
      ['LoginNotice', null],
      ['Callout', null],
    ]);
    expect(bootHints({ components, remotes: [MARKETING, PARTNER], builtFiles })).toEqual([
      { rel: 'preload', as: 'fetch', crossorigin: true, href: '/remotes/team_marketing/mf-manifest.json' },
      { rel: 'preload', as: 'script', href: '/remotes/team_marketing/remoteEntry.js' },
      { rel: 'preload', as: 'script', href: '/remotes/team_marketing/LoginNotice.js' },
      { rel: 'preload', as: 'script', href: '/remotes/team_marketing/common.js' },
      { rel: 'preload', as: 'script', href: '/remotes/team_marketing/Callout.js' },
      { rel: 'preload', as: 'style', href: '/remotes/team_marketing/Callout.css' },
    ]);
  });

  it('names no manifest for a remote the page registers by its entry script: the runtime never fetches it', () => {
    const byEntry = { ...FILES, loadableByEntry: true };
    const hints = bootHints({
      components: new Map([['Callout', null]]),
      remotes: [MARKETING],
      builtFiles: () => byEntry,
    });
    expect(hints.map((hint) => hint.href)).toEqual([
      '/remotes/team_marketing/remoteEntry.js',
      '/remotes/team_marketing/Callout.js',
      '/remotes/team_marketing/Callout.css',
    ]);
  });

  it('keeps the media query of what only the sidebar needs, and drops it for a file also needed elsewhere', () => {
    const components = new Map<string, string | null>([
      ['LoginSidebarPromo', MEDIA],
      ['LoginNotice', null],
    ]);
    const hints = bootHints({ components, remotes: [MARKETING], builtFiles });
    expect(hints.find((hint) => hint.href.endsWith('/Promo.js'))).toEqual({
      rel: 'preload',
      as: 'script',
      href: '/remotes/team_marketing/Promo.js',
      media: MEDIA,
    });
    expect(hints.find((hint) => hint.href.endsWith('/common.js'))?.media).toBeUndefined();
    expect(hints.find((hint) => hint.href.endsWith('/remoteEntry.js'))?.media).toBeUndefined();
  });

  it('puts the query on the manifest and entry too when the sidebar is all the page needs of a remote', () => {
    const hints = bootHints({ components: new Map([['LoginSidebarPromo', MEDIA]]), remotes: [MARKETING], builtFiles });
    expect(hints.map((hint) => hint.media)).toEqual([MEDIA, MEDIA, MEDIA, MEDIA]);
  });

  it('only preconnects to a remote this server does not build, and ignores components nobody provides', () => {
    const components = new Map<string, string | null>([
      ['PartnerBadge', null],
      ['Unknown', null],
    ]);
    expect(bootHints({ components, remotes: [MARKETING, PARTNER], builtFiles })).toEqual([
      { rel: 'preconnect', href: 'https://cdn.example.com', crossorigin: true },
    ]);
  });

  it('takes a component from its first provider, as the host does', () => {
    const hints = bootHints({ components: new Map([['Callout', null]]), remotes: [PARTNER, MARKETING], builtFiles });
    expect(hints).toEqual([{ rel: 'preconnect', href: 'https://cdn.example.com', crossorigin: true }]);
  });

  it('hints nothing for a page without remote components', () => {
    expect(bootHints({ components: new Map(), remotes: [MARKETING], builtFiles })).toEqual([]);
  });
});

describe('renderBootHints and replaceHintsMarker', () => {
  it('renders link elements with escaped attributes', () => {
    expect(
      renderBootHints([
        { rel: 'preload', as: 'fetch', crossorigin: true, href: '/a.json?x=1&y="2"' },
        { rel: 'preload', as: 'script', href: '/b.js', media: '(min-width: 1024px)' },
        { rel: 'preconnect', href: 'https://cdn.example.com', crossorigin: true },
      ]),
    ).toBe(
      '<link rel="preload" href="/a.json?x=1&amp;y=&quot;2&quot;" as="fetch" crossorigin>' +
        '<link rel="preload" href="/b.js" as="script" media="(min-width: 1024px)">' +
        '<link rel="preconnect" href="https://cdn.example.com" crossorigin>',
    );
  });

  it('replaces the marker element, minified or not, and leaves a page without one as it is', () => {
    expect(replaceHintsMarker('<head><meta name=slots-remote-hints></head>', '<link>')).toBe('<head><link></head>');
    expect(replaceHintsMarker('<head><meta name="slots-remote-hints" content=""/></head>', 'X')).toBe('<head>X</head>');
    expect(replaceHintsMarker('<head><meta name=slots-remote-hints-other></head>', 'X')).toBe(
      '<head><meta name=slots-remote-hints-other></head>',
    );
    expect(replaceHintsMarker('<head><title>x</title></head>', 'X')).toBe('<head><title>x</title></head>');
  });
});

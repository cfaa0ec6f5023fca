import { BOOT_DATA_ELEMENT_ID, type BootData, type RemoteDescriptor } from '../../shared';
import { bootData, registeredRemotes, renderBootData } from './boot-data';
import type { BuiltRemoteFiles } from './built-remote-files';

const REMOTE: RemoteDescriptor = {
  name: 'team_marketing',
  entry: '/remotes/team_marketing/mf-manifest.json',
  components: ['LoginNotice'],
  formComponents: [],
};

function parseElement(html: string): unknown {
  const match = new RegExp(`^<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">(.*)</script>$`, 's').exec(
    html,
  );
  if (!match) throw new Error(`Not a boot data element: ${html}`);
  return JSON.parse(match[1] ?? '');
}

describe('boot data', () => {
  it('holds the remotes and the page components, with a media query only where there is one', () => {
    const data = bootData(
      [REMOTE],
      new Map<string, string | null>([
        ['LoginNotice', null],
        ['LoginSidebarPromo', '(min-width: 1024px)'],
      ]),
      false,
    );
    expect(data).toEqual({
      remotes: [REMOTE],
      components: [{ component: 'LoginNotice' }, { component: 'LoginSidebarPromo', media: '(min-width: 1024px)' }],
      showSlotDetails: false,
    });
    expect(parseElement(renderBootData(data))).toEqual(data);
  });

  it('escapes what could end the element or be read as markup, and the JSON still parses to the same data', () => {
    const hostile: BootData = {
      remotes: [{ ...REMOTE, entry: 'https://cdn.example.com/</script><script>alert(1)</script>&\u2028\u2029<!--' }],
      components: [],
      showSlotDetails: true,
    };
    const html = renderBootData(hostile);
    const inner = html.slice(html.indexOf('>') + 1, html.lastIndexOf('</script>'));
    expect(inner).not.toMatch(/[<>&\u2028\u2029]/);
    expect(parseElement(html)).toEqual(hostile);
  });

  it('registers a remote built here by its hashed entry script, and any other by what its descriptor says', () => {
    const elsewhere = { ...REMOTE, name: 'team_partner', entry: 'https://cdn.example.com/partner/mf-manifest.json' };
    const files = (loadableByEntry: boolean): BuiltRemoteFiles => ({
      manifest: REMOTE.entry,
      entry: '/remotes/team_marketing/remoteEntry.0a1b2c3d4e.js',
      loadableByEntry,
      exposes: new Map(),
    });
    const built = (loadable: boolean) => (remote: RemoteDescriptor) =>
      remote.name === REMOTE.name ? files(loadable) : null;
    expect(registeredRemotes([REMOTE, elsewhere], built(true))).toEqual([
      { ...REMOTE, entry: '/remotes/team_marketing/remoteEntry.0a1b2c3d4e.js' },
      elsewhere,
    ]);
    // A container the runtime could not find from its entry alone keeps its manifest.
    expect(registeredRemotes([REMOTE, elsewhere], built(false))).toEqual([REMOTE, elsewhere]);
  });
});

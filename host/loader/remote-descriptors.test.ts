import { parseRemotesPayload, previewedReleasesOf } from './remote-descriptors';

const REMOTE = { name: 'team_records', entry: '/remotes/team_records/mf-manifest.json', components: ['Timeline'] };

describe('parseRemotesPayload', () => {
  it("keeps the version a remote is previewed at, and only a version: the page's preview notice names it", () => {
    const { remotes, problems } = parseRemotesPayload({
      remotes: [
        { ...REMOTE, formComponents: [], previewedVersion: '2.1.0' },
        { ...REMOTE, name: 'team_marketing', formComponents: [], previewedVersion: 2 },
        { ...REMOTE, name: 'team_news', formComponents: [], previewedVersion: 'x'.repeat(201) },
      ],
    });
    expect(problems).toEqual([]);
    expect(remotes.map((remote) => [remote.name, remote.previewedVersion])).toEqual([
      ['team_records', '2.1.0'],
      ['team_marketing', undefined],
      ['team_news', undefined],
    ]);
    expect(previewedReleasesOf(remotes)).toEqual([{ remote: 'team_records', version: '2.1.0' }]);
  });
});

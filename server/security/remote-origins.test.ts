import { remoteOrigins } from './remote-origins';

describe('remoteOrigins', () => {
  it('keeps the origins of absolute http(s) entries, once each, sorted', () => {
    expect(
      remoteOrigins([
        'https://cdn.example.com/marketing/mf-manifest.json',
        'https://cdn.example.com/records/mf-manifest.json',
        'http://127.0.0.1:4001/mf-manifest.json',
        'HTTPS://CDN.Example.com:443/other/mf-manifest.json',
      ]),
    ).toEqual(['http://127.0.0.1:4001', 'https://cdn.example.com']);
  });

  it('drops relative entries (served by this origin) and other schemes', () => {
    expect(
      remoteOrigins(['/remotes/team_records/mf-manifest.json', 'data:text/javascript,1', 'javascript:alert(1)']),
    ).toEqual([]);
  });
});

import { releaseOriginRefusal } from './release-origin-refusal';

const config = {
  releaseOrigins: new Map<string, readonly string[]>([
    ['team_billing', ['https://billing.example.com', 'https://cdn.example.com']],
    ['team_local', []],
  ]),
};

it('takes an entry on one of the remote’s release origins, and any entry of a remote the file gives none', () => {
  expect(releaseOriginRefusal(config, 'team_billing', new URL('https://cdn.example.com/b/1.0/mf-manifest.json'))).toBe(
    null,
  );
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
    const url = new URL(entry);
    expect(releaseOriginRefusal(config, 'team_billing', url)).toBe(
      `"entry" ${JSON.stringify(url.href)} is on ${url.origin}, an origin the operators have not allowed for the ` +
        'releases of remote "team_billing": they are published from https://billing.example.com, ' +
        'https://cdn.example.com only (the origin of its REMOTES_CONFIG entry and its "releaseOrigins"), and ' +
        `nothing was asked there. Ask the operators to add the origin to the remote's "releaseOrigins" in REMOTES_CONFIG.`,
    );
  }
});

it('says when the operators allow no origin at all', () => {
  expect(releaseOriginRefusal(config, 'team_local', new URL('https://cdn.example.com/x.json'))).toBe(
    '"entry" "https://cdn.example.com/x.json" is on https://cdn.example.com, but the operators allow the releases ' +
      'of remote "team_local" from no origin ("releaseOrigins" is empty and its REMOTES_CONFIG entry is on this ' +
      `server), and nothing was asked there. Ask the operators to add the origin to the remote's "releaseOrigins" in ` +
      'REMOTES_CONFIG.',
  );
});

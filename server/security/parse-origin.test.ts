import { parseOrigin } from './parse-origin';

describe('parseOrigin', () => {
  it('takes scheme://host[:port], with or without a trailing slash', () => {
    expect(parseOrigin('https://admin.example.com')).toBe('https://admin.example.com');
    expect(parseOrigin('http://127.0.0.1:5000/')).toBe('http://127.0.0.1:5000');
  });

  it.each(['https://admin.example.com/app', 'ftp://example.com', '*', 'https://*', 'https://*.example.com'])(
    'refuses %s (a path, another scheme, or a wildcard no browser sends as its Origin)',
    (value) => {
      expect(parseOrigin(value)).toBeNull();
    },
  );
});

import { parseOrigin } from './parse-origin';

describe('parseOrigin', () => {
  it('takes scheme://host[:port], with or without a trailing slash', () => {
    expect(parseOrigin('https://admin.example.com')).toBe('https://admin.example.com');
    expect(parseOrigin('http://127.0.0.1:5000/')).toBe('http://127.0.0.1:5000');
  });

  it.each([
    ['https://Admin.Example.COM', 'https://admin.example.com'],
    ['HTTPS://admin.example.com/', 'https://admin.example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://admin.example.com:443', 'https://admin.example.com'],
    ['http://admin.example.com:80/', 'http://admin.example.com'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('reads %s as the origin a browser sends, %s', (written, origin) => {
    expect(parseOrigin(written)).toBe(origin);
  });

  it.each([
    'https://admin.example.com/app',
    'https://admin.example.com?',
    'https://admin.example.com#top',
    'https://admin.example.com//',
    'https://user:secret@admin.example.com',
    'ftp://example.com',
    'admin.example.com',
    '*',
    'https://*',
    'https://*.example.com',
  ])('refuses %s (a path, query, fragment, credentials, another scheme, or a wildcard no browser sends)', (value) => {
    expect(parseOrigin(value)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(parseOrigin(undefined)).toBeNull();
    expect(parseOrigin(42)).toBeNull();
  });
});

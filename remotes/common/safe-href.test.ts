import { linkItems } from './link-items';
import { isExternalHref, safeHref } from './safe-href';

describe('safeHref', () => {
  it('keeps site paths, fragments and http(s)/mailto URLs', () => {
    expect(safeHref('/resources/articles')).toBe('/resources/articles');
    expect(safeHref('#main')).toBe('#main');
    expect(safeHref('https://status.example.com/')).toBe('https://status.example.com/');
    expect(safeHref('mailto:help@example.com')).toBe('mailto:help@example.com');
  });

  it('refuses script URLs, protocol-relative URLs and non-strings', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' JavaScript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<b>x</b>')).toBeUndefined();
    expect(safeHref('//evil.example.com/x')).toBeUndefined();
    expect(safeHref(42)).toBeUndefined();
    expect(safeHref('')).toBeUndefined();
  });

  it('refuses paths the browser resolves to another origin', () => {
    // Backslashes read as slashes, and the URL parser deletes tab, newline and carriage return anywhere.
    for (const value of [
      '/\\evil.example/x',
      '\\\\evil.example/x',
      '\\evil.example/x',
      '/\t/evil.example/y',
      '/\n/evil.example/y',
      '/\r/evil.example/y',
      '\t//evil.example/y',
      '/\t\\evil.example/y',
    ]) {
      expect(safeHref(value)).toBeUndefined();
    }
  });

  it('hands out the link the browser will follow, without the characters it deletes', () => {
    expect(safeHref('/records/1')).toBe('/records/1');
    expect(safeHref('/rec\tords/\n1')).toBe('/records/1');
    expect(safeHref('https://x')).toBe('https://x/');
    expect(safeHref('java\tscript:alert(1)')).toBeUndefined();
  });

  it('tells external links from site links', () => {
    expect(isExternalHref('https://example.org/')).toBe(true);
    expect(isExternalHref('https://x')).toBe(true);
    expect(isExternalHref('//evil.example/x')).toBe(true);
    expect(isExternalHref('/\\evil.example/x')).toBe(true);
    expect(isExternalHref('/\t/evil.example/y')).toBe(true);
    expect(isExternalHref('\\\\evil.example/x')).toBe(true);
    expect(isExternalHref(`${window.location.origin}/resources`)).toBe(false);
    expect(isExternalHref('/resources')).toBe(false);
    expect(isExternalHref('/records/1')).toBe(false);
    expect(isExternalHref('#main')).toBe(false);
    expect(isExternalHref('mailto:help@example.com')).toBe(false);
  });
});

describe('linkItems', () => {
  it('keeps well-formed safe links in order and drops the rest', () => {
    expect(
      linkItems([
        { label: 'Docs', href: '/docs' },
        { label: 'Bad', href: 'javascript:void 0' },
        { label: '', href: '/empty' },
        'nope',
        null,
        { label: 'Status', href: 'https://status.example.com' },
      ]),
    ).toEqual([
      { label: 'Docs', href: '/docs' },
      { label: 'Status', href: 'https://status.example.com/' },
    ]);
    expect(linkItems('not a list')).toEqual([]);
  });
});

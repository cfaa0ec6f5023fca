import { internalPath } from './internal-path';

describe('internalPath', () => {
  it('keeps a page of this app with its query and #fragment', () => {
    expect(internalPath('/resources/articles?q=spring&group=news#x')).toBe('/resources/articles?q=spring&group=news#x');
    expect(internalPath('/')).toBe('/');
  });

  it('falls back to the dashboard for another origin, however written, and for the sign-in page', () => {
    for (const value of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '']) {
      expect(internalPath(value)).toBe('/');
    }
    // The URL parser deletes tab, newline and carriage return, so each of these is `//evil.example` to a browser.
    for (const value of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/\t\\evil.example',
      '\\\\evil.example',
    ]) {
      expect(internalPath(value)).toBe('/');
    }
    for (const value of ['/login', '/login?next=/x', '/login#top']) expect(internalPath(value)).toBe('/');
    expect(internalPath(undefined)).toBe('/');
    expect(internalPath(42, '/resources')).toBe('/resources');
  });
});

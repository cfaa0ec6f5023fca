import { ifNoneMatchHits, strongEtag } from './etag';

describe('strongEtag', () => {
  it('is a quoted strong tag that depends only on the bytes', () => {
    const tag = strongEtag('{"slots":{}}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(strongEtag('{"slots":{}}')).toBe(tag);
    expect(strongEtag('{"slots":{"a":[]}}')).not.toBe(tag);
  });
});

describe('ifNoneMatchHits', () => {
  const tag = '"abc"';
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['', false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
  ])('If-None-Match %j -> %s', (header, hit) => {
    expect(ifNoneMatchHits(header, tag)).toBe(hit);
  });
});

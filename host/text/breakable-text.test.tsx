import { render } from '@testing-library/react';
import { BreakableText } from './breakable-text';

describe('BreakableText', () => {
  describe('a release’s version (after `.`, `-`, `+` and `_`, a part wider than its column broken inside)', () => {
    const asVersion = (version: string) =>
      render(<BreakableText text={version} breakAfter=".-+_" widePart="break" />).container;

    it('offers a break after each separator of a version, its text unchanged', () => {
      const version = '2026.11.29-build.1742+sha.0740d3c4_x';
      const container = asVersion(version);
      expect(container.textContent).toBe(version);
      expect(container.innerHTML).toBe('2026.<wbr>11.<wbr>29-<wbr>build.<wbr>1742+<wbr>sha.<wbr>0740d3c4_<wbr>x');
    });

    it('offers none in a version without a separator', () => {
      expect(asVersion('0740d3c4').innerHTML).toBe('0740d3c4');
    });
  });

  describe('a name or path of the slot inspector’s tables (after `/` only, each part whole)', () => {
    const asInspected = (text: string) => render(<BreakableText text={text} breakAfter="/" />).container;

    it('keeps a hyphenated name whole', () => {
      expect(asInspected('header-banner').innerHTML).toBe('<span class="breakable-text__part">header-banner</span>');
    });

    it('offers a break after each slash of a path, not between the two of a scheme, its text unchanged', () => {
      const path = 'http://localhost:4001/remotes/team_marketing/mf-manifest.json';
      const container = asInspected(path);
      expect(container.textContent).toBe(path);
      expect(container.innerHTML).toBe(
        '<span class="breakable-text__part">http://</span><wbr><span class="breakable-text__part">localhost:4001/</span><wbr>' +
          '<span class="breakable-text__part">remotes/</span><wbr><span class="breakable-text__part">team_marketing/</span><wbr>' +
          '<span class="breakable-text__part">mf-manifest.json</span>',
      );
    });

    it('keeps the words of a sentence whole, its spaces where a line may break', () => {
      const reason = 'hidden by the media query: (min-width: 1024px) does not match';
      const container = asInspected(reason);
      expect(container.textContent).toBe(reason);
      expect(container.querySelectorAll('.breakable-text__part')).toHaveLength(10);
      expect(container.querySelectorAll('.breakable-text__part')[5]?.textContent).toBe('(min-width:');
    });
  });

  describe('a name of the location catalogue (after `-`, `.` and `/`, a part wider than its box broken inside)', () => {
    const asCatalogued = (text: string) =>
      render(<BreakableText text={text} breakAfter="-./" widePart="break" />).container;

    it('offers a break after each hyphen of a location, none inside its words', () => {
      expect(asCatalogued('resource-before-relations').innerHTML).toBe('resource-<wbr>before-<wbr>relations');
    });

    it('offers one after a run of separators, and at the spaces of a list', () => {
      const names = 'promo/Wide.v2--beta, team_marketing';
      const container = asCatalogued(names);
      expect(container.textContent).toBe(names);
      expect(container.innerHTML).toBe('promo/<wbr>Wide.<wbr>v2--<wbr>beta, team_marketing');
    });
  });

  it('takes the characters a character class would read otherwise (`^`, `]`, `\\`) as themselves', () => {
    const { container } = render(<BreakableText text={'a]b^c\\d-e'} breakAfter={'^]\\'} widePart="break" />);
    expect(container.textContent).toBe('a]b^c\\d-e');
    expect(container.innerHTML).toBe('a]<wbr>b^<wbr>c\\<wbr>d-e');
  });
});

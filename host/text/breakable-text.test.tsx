import { render } from '@testing-library/react';
import { BreakableText } from './breakable-text';

describe('BreakableText', () => {
  describe('in a box that cannot widen (after `-`, `.` and `/`, taken only by a name wider than a line)', () => {
    const asHeading = (text: string, breakAfter?: string) =>
      render(<BreakableText text={text} breakAfter={breakAfter} wide="break" />).container;

    it('offers a break after each separator of a name alone in its box, none inside its words', () => {
      expect(asHeading('resource-before-relations').innerHTML).toBe('resource-<wbr>before-<wbr>relations');
      expect(asHeading('0740d3c4', '.-+_').innerHTML).toBe('0740d3c4');
    });

    it('offers one after each separator of a release’s version given its own, its text unchanged', () => {
      const version = '2026.11.29-build.1742+sha.0740d3c4_x';
      const container = asHeading(version, '.-+_');
      expect(container.textContent).toBe(version);
      expect(container.innerHTML).toBe('2026.<wbr>11.<wbr>29-<wbr>build.<wbr>1742+<wbr>sha.<wbr>0740d3c4_<wbr>x');
    });

    it('makes each name of several parts among other words one box, moved whole to the next line while it fits', () => {
      const names = 'promo/Wide.v2--beta, header-banner team_marketing';
      const container = asHeading(names);
      expect(container.textContent).toBe(names);
      expect(container.innerHTML).toBe(
        '<span class="breakable-text__name">promo/<wbr>Wide.<wbr>v2--<wbr>beta,</span> ' +
          '<span class="breakable-text__name">header-<wbr>banner</span> team_marketing',
      );
    });

    it('takes the characters a character class would read otherwise (`^`, `]`, `\\`) as themselves', () => {
      const container = asHeading('a]b^c\\d-e', '^]\\');
      expect(container.textContent).toBe('a]b^c\\d-e');
      expect(container.innerHTML).toBe('a]<wbr>b^<wbr>c\\<wbr>d-e');
    });
  });

  describe('in a box that widens, a table’s column (after `/` only, each part whole)', () => {
    const asCell = (text: string) => render(<BreakableText text={text} />).container;

    it('keeps a hyphenated or dotted name whole', () => {
      expect(asCell('header-banner').innerHTML).toBe('<span class="breakable-text__part">header-banner</span>');
      expect(asCell('promo.wide').innerHTML).toBe('<span class="breakable-text__part">promo.wide</span>');
    });

    it('offers a break after each slash of a path, not between the two of a scheme, its text unchanged', () => {
      const path = 'http://localhost:4001/remotes/team_marketing/mf-manifest.json';
      const container = asCell(path);
      expect(container.textContent).toBe(path);
      expect(container.innerHTML).toBe(
        '<span class="breakable-text__part">http://</span><wbr><span class="breakable-text__part">localhost:4001/</span><wbr>' +
          '<span class="breakable-text__part">remotes/</span><wbr><span class="breakable-text__part">team_marketing/</span><wbr>' +
          '<span class="breakable-text__part">mf-manifest.json</span>',
      );
    });

    it('keeps the words of a sentence whole, its spaces where a line may break', () => {
      const reason = 'hidden by the media query: (min-width: 1024px) does not match';
      const container = asCell(reason);
      expect(container.textContent).toBe(reason);
      expect(container.querySelectorAll('.breakable-text__part')).toHaveLength(10);
      expect(container.querySelectorAll('.breakable-text__part')[5]?.textContent).toBe('(min-width:');
    });
  });
});

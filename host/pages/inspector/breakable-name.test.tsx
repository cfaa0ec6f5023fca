import { render } from '@testing-library/react';
import { BreakableName } from './breakable-name';

describe('BreakableName', () => {
  it('keeps a hyphenated name whole', () => {
    const { container } = render(<BreakableName text="header-banner" />);
    expect(container.innerHTML).toBe('<span class="breakable-name__part">header-banner</span>');
  });

  it('offers a break after each slash of a path, not between the two of a scheme, its text unchanged', () => {
    const path = 'http://localhost:4001/remotes/team_marketing/mf-manifest.json';
    const { container } = render(<BreakableName text={path} />);
    expect(container.textContent).toBe(path);
    expect(container.innerHTML).toBe(
      '<span class="breakable-name__part">http://</span><wbr><span class="breakable-name__part">localhost:4001/</span><wbr>' +
        '<span class="breakable-name__part">remotes/</span><wbr><span class="breakable-name__part">team_marketing/</span><wbr>' +
        '<span class="breakable-name__part">mf-manifest.json</span>',
    );
  });

  it('keeps the words of a sentence whole, its spaces where a line may break', () => {
    const reason = 'hidden by the media query: (min-width: 1024px) does not match';
    const { container } = render(<BreakableName text={reason} />);
    expect(container.textContent).toBe(reason);
    expect(container.querySelectorAll('.breakable-name__part')).toHaveLength(10);
    expect(container.querySelectorAll('.breakable-name__part')[5]?.textContent).toBe('(min-width:');
  });
});
